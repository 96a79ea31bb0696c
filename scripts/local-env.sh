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
