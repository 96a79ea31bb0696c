#!/usr/bin/env bash
# make up: installs what is missing, builds, prepares databases and the local env file, then runs
# every service in the foreground with readable logs. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/local-env.sh

export AUTH_HOST="${AUTH_HOST:-127.0.0.1}" AUTH_PORT="${AUTH_PORT:-4000}"
export PUSH_HOST="${PUSH_HOST:-127.0.0.1}" PUSH_PORT="${PUSH_PORT:-3000}"
export PUSH_WORKER_HOST="${PUSH_WORKER_HOST:-127.0.0.1}" PUSH_WORKER_PORT="${PUSH_WORKER_PORT:-3001}"
# /metrics of auth and push: on ports of their own (the main ports answer it 404).
export AUTH_METRICS_PORT="${AUTH_METRICS_PORT:-9465}" PUSH_METRICS_PORT="${PUSH_METRICS_PORT:-9464}"
AUTH_URL="http://$AUTH_HOST:$AUTH_PORT"
PUSH_URL="http://$PUSH_HOST:$PUSH_PORT"
export PUSH_AUTH_URL="$AUTH_URL"
# The API and the worker build the same links (the worker's emails carry them); the worker unseals
# link tokens with PUSH_ENCRYPTION_KEYS, which both read from .local/dev.env.
export PUSH_PUBLIC_URL="${PUSH_PUBLIC_URL:-$PUSH_URL}"
# The sign-in service's pages lead back to the web app.
export AUTH_APP_URL="${AUTH_APP_URL:-$PUSH_PUBLIC_URL}"

# Each service with the heap settings of its k8s Deployment (NODE_OPTIONS there, as flags here so
# that `ps` shows them): what runs locally is what ships.
AUTH_NODE_FLAGS="$(node scripts/pod-node-options.cjs auth)"
PUSH_NODE_FLAGS="$(node scripts/pod-node-options.cjs push)"
WORKER_NODE_FLAGS="$(node scripts/pod-node-options.cjs worker)"

banner() {
  for _ in $(seq 1 100); do
    curl -fsS "$AUTH_URL/readyz" >/dev/null 2>&1 && curl -fsS "$PUSH_URL/readyz" >/dev/null 2>&1 && break
    sleep 0.3
  done
  cat <<MSG

================================================================================
 secret-push is running            (Ctrl-C stops everything)
   auth service   $AUTH_URL
   push API       $PUSH_URL/api/v2   (docs: $PUSH_URL/api/v2/docs)
   metrics        auth   http://$AUTH_HOST:$AUTH_METRICS_PORT/metrics
                  push   http://$PUSH_HOST:$PUSH_METRICS_PORT/metrics
                  worker http://$PUSH_WORKER_HOST:$PUSH_WORKER_PORT/metrics
   local S3       $PUSH_S3_ENDPOINT  (s3rver, bucket $PUSH_S3_BUCKET, data in .local/s3)
   mail inbox     $LOCAL_INBOX_URL/   (every email both services send; SMTP 127.0.0.1:$LOCAL_SMTP_PORT)

 Web app          $PUSH_URL/   (sign in with the demo user: kept in .local/dev.env)
   email          $DEMO_USER_EMAIL
   password       $DEMO_USER_PASSWORD

 Demo client (kept in .local/dev.env):
   client_id      $DEMO_CLIENT_ID
   client_secret  $DEMO_CLIENT_SECRET

 Get an access token:
   curl -s -u '$DEMO_CLIENT_ID:$DEMO_CLIENT_SECRET' -d grant_type=client_credentials $AUTH_URL/connect/token

 Create a push with it, then retrieve it (each retrieval uses a view):
   TOKEN=\$(curl -s -u '$DEMO_CLIENT_ID:$DEMO_CLIENT_SECRET' -d grant_type=client_credentials $AUTH_URL/connect/token | sed -E 's/.*"access_token":"([^"]+)".*/\1/')
   URL_TOKEN=\$(curl -s -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application/json' \\
     -d '{"push":{"payload":"my secret","expire_after_views":2}}' $PUSH_URL/api/v2/pushes | sed -E 's/.*"url_token":"([^"]+)".*/\1/')
   curl -s $PUSH_URL/api/v2/pushes/\$URL_TOKEN

 Push a file (files need a token); a retrieval lists download links in files[].url:
   curl -s -H "Authorization: Bearer \$TOKEN" -F 'push[files][]=@README.md' $PUSH_URL/api/v2/pushes
================================================================================

MSG
}
banner &
banner_pid=$!
trap 'kill $banner_pid 2>/dev/null || true' EXIT

PRETTY="node_modules/.bin/pino-pretty --colorize --translateTime SYS:HH:MM:ss --ignore pid,hostname,name"
S3_PORT="$(node -e 'console.log(new URL(process.argv[1]).port || 80)' "$PUSH_S3_ENDPOINT")"
node_modules/.bin/concurrently --kill-others --names s3,mail,auth,push,worker \
  --prefix-colors gray,yellow,blue,green,magenta \
  "node packages/testing/dist/local-s3.js --directory .local/s3 --port $S3_PORT --bucket $PUSH_S3_BUCKET" \
  "node packages/testing/dist/local-mail.js --smtp-port $LOCAL_SMTP_PORT --http-port $LOCAL_INBOX_PORT" \
  "node $AUTH_NODE_FLAGS services/auth/dist/main.js | $PRETTY" \
  "node $PUSH_NODE_FLAGS services/push/dist/main-api.js | $PRETTY" \
  "node $WORKER_NODE_FLAGS services/push/dist/main-worker.js | $PRETTY"
