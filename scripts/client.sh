#!/usr/bin/env bash
# make client NAME=x SCOPES="pushes:read pushes:write": prints only the new client's JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:-}"; scopes="${2:-}"
if [ -z "$name" ] || [ -z "$scopes" ]; then
  echo 'usage: make client NAME=my-service SCOPES="pushes:read pushes:write"' >&2
  exit 2
fi
source scripts/local-env.sh
exec node services/auth/dist/cli/main.js clients create --name "$name" --scopes "$scopes" --json
