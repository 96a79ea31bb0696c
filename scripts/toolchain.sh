#!/usr/bin/env bash
# Source this file: it makes Node 24 and pnpm available on PATH (it returns non-zero on failure
# and leaves the caller's shell options alone).
# When the system Node is older than 22.12, a Node 24 binary is fetched from the npm registry's
# `node` package into .tools/ (ignored); pnpm is installed there too. Idempotent and quiet when
# everything is already in place.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
NODE_VERSION="24.21.0"
PNPM_VERSION="11.28.11"
TOOLS="$ROOT/.tools"

node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'
}

export PATH="$TOOLS/node/node_modules/.bin:$TOOLS/pnpm/node_modules/.bin:$PATH"
if ! node_ok; then
  echo "toolchain: fetching Node $NODE_VERSION from the npm registry into .tools/node" >&2
  mkdir -p "$TOOLS/node"
  npm install --prefix "$TOOLS/node" --no-save --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
  hash -r
  node_ok || { echo "toolchain: Node $NODE_VERSION install failed" >&2; return 1; }
fi
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "toolchain: installing pnpm $PNPM_VERSION into .tools/pnpm" >&2
  mkdir -p "$TOOLS/pnpm"
  npm install --prefix "$TOOLS/pnpm" --no-save --no-audit --no-fund --loglevel=error "pnpm@$PNPM_VERSION" >&2 || return 1
  hash -r
fi
export COREPACK_ENABLE_STRICT=0
export npm_config_update_notifier=false
