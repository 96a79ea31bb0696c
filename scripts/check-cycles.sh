#!/usr/bin/env bash
# Fails on an import cycle in services/, packages/, bench/ or deploy/ (dependency-cruiser,
# .dependency-cruiser.cjs; `import type` counts). Run by `pnpm lint`. It first checks that the
# check itself still works: the fixture .dependency-cruiser.fixtures/cycle/ holds a cycle through
# an `import type`, which must be reported.
set -euo pipefail
cd "$(dirname "$0")/.."
depcruise=node_modules/.bin/depcruise

if fixture=$("$depcruise" --config .dependency-cruiser.cjs --output-type err .dependency-cruiser.fixtures/cycle 2>&1); then
  echo "check-cycles: the cycle in .dependency-cruiser.fixtures/cycle/ was not reported; the check is broken" >&2
  exit 1
elif ! grep -q 'no-circular' <<<"$fixture"; then
  echo "check-cycles: the fixture run failed for another reason than its cycle:" >&2
  echo "$fixture" >&2
  exit 1
fi

"$depcruise" --config .dependency-cruiser.cjs --output-type err services packages bench deploy
