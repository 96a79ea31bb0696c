#!/usr/bin/env bash
# The whole suite: install and build (typecheck), lint, then unit and integration tests against
# the local PostgreSQL and Redis (each test file gets its own database and key prefix), then the
# slow suites, each on its own, in band and capped in time:
#   - the fault suite (pnpm test:faults, ≤ 8 min): private PostgreSQL, Redis and s3rver, the auth
#     service, two push replicas and the worker as processes, each dependency stopped, restarted
#     and frozen under load;
#   - the hostile-input suite (pnpm test:fuzz, ≤ 4 min): FUZZ_RUNS property-based inputs (20,000
#     by default; 10,000 here since the pages' languages made each page input dearer and the suite
#     outgrew its cap — see docs/testing.md) against every endpoint of both services;
#   - the browser suite (pnpm test:browser, ≤ 14 min): the recipient pages and the SDK in Chromium;
#   - the CLI suite (pnpm test:cli, ≤ 4 min): the built binary as a child process (a 100 MiB file,
#     its memory measured) and the packed tarballs installed and run.
# The last line sums them: "tests: N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/ensure-services.sh
# The browser tests of the recipient pages need Debian's chromium (installed once when missing).
bash scripts/ensure-chromium.sh
source scripts/toolchain.sh || exit 1
# setup.sh built every package: no compiled test file may be in a dist/, and the tests, which
# ts-jest only transpiles, are type-checked here (tsconfig.typecheck.json, no emit).
bash scripts/check-dist.sh
echo "== typecheck" >&2
pnpm --silent typecheck
echo "== lint" >&2
pnpm --silent lint
# docs/configuration.md is generated from the config schemas: fails when the committed one is stale.
echo "== configuration docs" >&2
pnpm --silent config:docs --check
mkdir -p test-artifacts
rm -f test-artifacts/jest*.json
status=0
echo "== tests" >&2
pnpm --silent test --json --outputFile=test-artifacts/jest.json || status=$?

# A slow suite: its own Jest configuration, a time cap (a run that hits it fails), its own report.
slow_suite() {
  local name="$1" minutes="$2" script="$3"
  echo "== ${name} (at most ${minutes} min)" >&2
  local rc=0
  timeout --kill-after=20s "${minutes}m" pnpm --silent "$script" --json --outputFile="test-artifacts/jest-${name}.json" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then echo "${name}: stopped at its ${minutes}-minute cap" >&2; fi
  [ "$rc" -eq 0 ] || status=1
}
slow_suite faults 8 test:faults
FUZZ_RUNS="${FUZZ_RUNS:-10000}" slow_suite fuzz 4 test:fuzz
slow_suite browser 14 test:browser
slow_suite cli 4 test:cli

# A plain closing line over every report: "tests: N passed, N failed, N skipped".
node -e '
const fs = require("fs");
let p = 0, f = 0, s = 0;
for (const name of fs.readdirSync("test-artifacts").filter((n) => /^jest.*\.json$/.test(n))) {
  const r = JSON.parse(fs.readFileSync(`test-artifacts/${name}`, "utf8"));
  p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0); s += r.numPendingTests;
}
console.log(`tests: ${p} passed, ${f} failed, ${s} skipped`);' || true
exit $status
