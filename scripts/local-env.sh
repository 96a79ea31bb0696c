# Sourced by the make targets that run against the local system (make up, make client, make user):
# installs and builds what is missing, starts PostgreSQL and Redis if they are down, writes
# .local/dev.env (clients, keys, the demo user) and loads it with the Node 24 toolchain on PATH.
# Its own messages go to stderr, so that a target's stdout stays what it prints for scripts.
bash scripts/setup.sh
bash scripts/ensure-services.sh
bash scripts/dev-env.sh >&2
source scripts/toolchain.sh || exit 1
set -a
source .local/dev.env
set +a

# make up's mail catcher (packages/testing/dist/local-mail.js: SMTP and a web inbox on 127.0.0.1;
# docs/operations.md, "Email"). Both services send to it unless *_SMTP_URL is already set (a real
# relay); other ports: LOCAL_SMTP_PORT=2525 LOCAL_INBOX_PORT=8026 make up.
export LOCAL_SMTP_PORT="${LOCAL_SMTP_PORT:-1025}" LOCAL_INBOX_PORT="${LOCAL_INBOX_PORT:-8025}"
export LOCAL_INBOX_URL="http://127.0.0.1:$LOCAL_INBOX_PORT"
export AUTH_SMTP_URL="${AUTH_SMTP_URL:-smtp://127.0.0.1:$LOCAL_SMTP_PORT}"
export AUTH_MAIL_FROM="${AUTH_MAIL_FROM:-secret-push <no-reply@secret-push.local>}"
export PUSH_SMTP_URL="${PUSH_SMTP_URL:-smtp://127.0.0.1:$LOCAL_SMTP_PORT}"
export PUSH_MAIL_FROM="${PUSH_MAIL_FROM:-secret-push <no-reply@secret-push.local>}"

# Webhooks (docs/api.md, Webhooks): the local demo may send to a receiver on this machine over
# http; production allows https only and nothing private (docs/operations.md, "Webhooks").
export PUSH_WEBHOOK_ALLOW_HTTP="${PUSH_WEBHOOK_ALLOW_HTTP:-true}"
export PUSH_WEBHOOK_ALLOWED_DESTINATIONS="${PUSH_WEBHOOK_ALLOWED_DESTINATIONS:-127.0.0.1,::1}"
