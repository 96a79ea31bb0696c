#!/usr/bin/env bash
# The whole suite: install and build (typecheck), lint, then unit and integration tests against
# the local PostgreSQL and Redis (each test file gets its own database and key prefix).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/ensure-services.sh
# The browser tests of the recipient pages need Debian's chromium (installed once when missing).
bash scripts/ensure-chromium.sh
source scripts/toolchain.sh || exit 1
echo "== lint" >&2
pnpm --silent lint
echo "== tests" >&2
mkdir -p test-artifacts
status=0
pnpm --silent test --json --outputFile=test-artifacts/jest.json || status=$?
# A plain closing line: "tests: N passed, N failed".
node -e 'const r=require("./test-artifacts/jest.json");console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' || true
exit $status
