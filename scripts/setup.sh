#!/usr/bin/env bash
# Installs what is missing (Node 24, pnpm, dependencies from the frozen lockfile) and builds.
# Progress goes to stderr so that callers can keep stdout clean.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh || exit 1
pnpm install --frozen-lockfile --prefer-offline --reporter=silent >&2
# tsc -b never deletes outputs: compiled tests left in dist/ by builds that still emitted them go.
bash scripts/check-dist.sh --remove
# Nor outputs of modules that were moved or removed (they could shadow their replacements).
bash scripts/prune-dist.sh
pnpm --silent build >&2
