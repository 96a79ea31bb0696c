#!/usr/bin/env bash
# Fails when a compiled test file is in a build output: `*.test.*`, `*.browser.*`, `*.fault.*`,
# `*.fuzz.*`, `*.e2e.*`, `*.cases.*` (with their .d.ts and .map), or anything under a `test/`
# folder. Tests are type-checked (`pnpm typecheck`) but never emitted: each package's
# tsconfig.build.json leaves them out (its tsconfig.json, for editors and the typecheck, has them).
#   bash scripts/check-dist.sh                  every dist/ of the workspace (after `pnpm build`)
#   bash scripts/check-dist.sh DIR...           the dist/ folders under DIR (a `pnpm deploy --prod` tree)
#   bash scripts/check-dist.sh --remove [DIR…]  deletes them instead (scripts/setup.sh, before the
#                                               build: outputs of builds that still emitted tests)
set -euo pipefail
cd "$(dirname "$0")/.."
remove=false
if [ "${1:-}" = "--remove" ]; then
  remove=true
  shift
fi
roots=("$@")
[ "${#roots[@]}" -gt 0 ] || roots=(packages services bench deploy)
found=0
dists=0
while IFS= read -r -d '' dist; do
  dists=$((dists + 1))
  while IFS= read -r -d '' file; do
    if $remove; then
      rm -rf -- "$file"
    else
      echo "check-dist: test file in a build output: $file" >&2
    fi
    found=$((found + 1))
  done < <(find "$dist" -mindepth 1 \( -type d -name test -prune -print0 \) -o \( -type f \( -name '*.test.*' \
    -o -name '*.browser.*' -o -name '*.fault.*' -o -name '*.fuzz.*' -o -name '*.e2e.*' -o -name '*.cases.*' \) -print0 \))
done < <(find "${roots[@]}" -type d -name node_modules -prune -o -type d -name dist -prune -print0)
if $remove; then
  [ "$found" -eq 0 ] || echo "check-dist: removed $found compiled test file(s) or folder(s) left by older builds" >&2
  exit 0
fi
if [ "$dists" -eq 0 ]; then
  echo "check-dist: no dist/ under ${roots[*]} (build first)" >&2
  exit 1
fi
if [ "$found" -gt 0 ]; then
  echo "check-dist: $found compiled test file(s) in $dists dist/ folder(s)" >&2
  exit 1
fi
echo "check-dist: no compiled test file in $dists dist/ folder(s)" >&2
