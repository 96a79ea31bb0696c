#!/bin/sh
# One-shot of docker-compose.yml (run in the auth image) and step of scripts/rehearse.sh: creates,
# once, the keys and OAuth clients the services need and leaves each as a file in BOOTSTRAP_DIR,
# which the services read through *_FILE variables. Later runs reuse what exists; a client whose
# row is gone from the database (a dropped volume) is created again.
#   BOOTSTRAP_DIR  where the files go (default /bootstrap, a volume shared with the services)
#   APP_DIR        the auth service's files (default /app, as in the image)
#   FILE_OWNER     uid:gid to hand the files to (the compose one-shot runs as root to write the
#                  fresh volume, the services read as uid 1000); empty: leave them as they are
# The auth CLI reads AUTH_DATABASE_URL, AUTH_REDIS_URL, AUTH_ISSUER, AUTH_DATA_KEYS, NODE_ENV from the
# environment.
set -eu
dir="${BOOTSTRAP_DIR:-/bootstrap}"
app="${APP_DIR:-/app}"
cli() { node "$app/dist/cli/main.js" "$@"; }
json_field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(String(JSON.parse(s)[process.argv[1]])))' "$1"; }
umask 077
mkdir -p "$dir"

[ -s "$dir/auth-jwks.json" ] || { cli keys generate > "$dir/auth-jwks.json"; echo "bootstrap: signing key created"; }
[ -s "$dir/auth-cookie-keys" ] || { cli keys cookie > "$dir/auth-cookie-keys"; echo "bootstrap: cookie key created"; }
if [ ! -s "$dir/push-encryption-keys" ]; then
  node -e 'const id="k"+new Date().toISOString().slice(0,10).replaceAll("-","");process.stdout.write(id+":"+require("crypto").randomBytes(32).toString("base64"))' > "$dir/push-encryption-keys"
  echo "bootstrap: push encryption key created"
fi
export AUTH_JWKS_FILE="$dir/auth-jwks.json" AUTH_COOKIE_KEYS_FILE="$dir/auth-cookie-keys"

existing="$(cli clients list --json)"
has_client() { [ -s "$1" ] && printf '%s' "$existing" | grep -q "\"client_id\":\"$(cat "$1")\""; }

if ! has_client "$dir/push-client-id"; then
  creds="$(cli clients create-resource-server --name push-api --json)"
  printf '%s' "$creds" | json_field client_secret > "$dir/push-client-secret"
  printf '%s' "$creds" | json_field client_id > "$dir/push-client-id"
  echo "bootstrap: the push service's resource-server client created"
fi
if ! has_client "$dir/demo-client-id"; then
  creds="$(cli clients create --name demo --scopes "pushes:read pushes:write" --json)"
  printf '%s' "$creds" | json_field client_secret > "$dir/demo-client-secret"
  printf '%s' "$creds" | json_field client_id > "$dir/demo-client-id"
  echo "bootstrap: demo client created"
fi
if [ -n "${FILE_OWNER:-}" ]; then chown -R "$FILE_OWNER" "$dir"; fi
echo "bootstrap: demo client_id $(cat "$dir/demo-client-id") (secret in $dir/demo-client-secret)"
