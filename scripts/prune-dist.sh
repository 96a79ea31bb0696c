#!/usr/bin/env bash
# Deletes build outputs whose source is gone: `tsc -b` never deletes an output, so a module that
# was moved or removed (config.ts → config/index.ts, say) would stay in dist/ and could even be
# what `require('./config')` finds first. For each package, every dist/X.js (.js.map, .d.ts,
# .d.ts.map) without a src/X.ts goes. Run by scripts/setup.sh before the build.
set -euo pipefail
cd "$(dirname "$0")/.."
pruned=0
for dist in packages/*/dist services/*/dist bench/dist deploy/dist; do
  [ -d "$dist" ] || continue
  src="$(dirname "$dist")/src"
  while IFS= read -r -d '' out; do
    rel="${out#"$dist"/}"
    base="${rel%.d.ts.map}"; base="${base%.js.map}"; base="${base%.d.ts}"; base="${base%.js}"
    if [ ! -f "$src/$base.ts" ]; then
      rm -f -- "$out"
      pruned=$((pruned + 1))
    fi
  done < <(find "$dist" -type f \( -name '*.js' -o -name '*.js.map' -o -name '*.d.ts' -o -name '*.d.ts.map' \) -print0)
done
[ "$pruned" -eq 0 ] || echo "prune-dist: removed $pruned stale build output(s)" >&2
