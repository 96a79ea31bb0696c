#!/usr/bin/env bash
# make rehearse: the multi-replica rehearsal (docs/deployment.md, "Rehearsal"). Builds the two images' file
# trees as the Dockerfile does (pnpm deploy --prod), then deploy/src/rehearsal/main.ts runs
# 2 auth, 2 push API and 2 worker processes with the commands and environment of k8s/base behind
# round-robin proxies, on fresh databases, a unique Redis prefix, s3rver and an SMTP catcher, and
# runs the smoke checks. Bounded in time (REHEARSAL_TIMEOUT seconds, default 600); processes, databases and Redis
# keys are removed afterwards even when it is interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/ensure-services.sh
source scripts/toolchain.sh || exit 1
command -v kubectl >/dev/null || { echo "rehearse: kubectl is required (renders k8s/base)" >&2; exit 1; }

work="$PWD/.local/rehearsal/$(date -u +%Y%m%dT%H%M%S)-$$"
mkdir -p "$work"
echo "rehearse: building the images' file trees in $work (pnpm deploy --prod)" >&2
for svc in auth push; do
  pnpm --silent --filter "@secret-push/$svc" deploy --prod --legacy --prefer-offline "$work/$svc-app" >&2
  rm -rf "$work/$svc-app/src" "$work/$svc-app/tsconfig.json"
done
# The production trees hold no compiled test file (tests are left out of every build).
bash scripts/check-dist.sh "$work/auth-app" "$work/push-app"

pid=""
watchdog=""
cleanup() {
  [ -n "$watchdog" ] && kill -- "-$watchdog" 2>/dev/null || true
  # Anything left of the rehearsal's process group (only if it was interrupted).
  [ -n "$pid" ] && kill -KILL -- "-$pid" 2>/dev/null || true
  if [ -f "$work/state.env" ]; then
    # shellcheck disable=SC1091
    source "$work/state.env"
    for db in $DATABASES; do
      psql -q -h 127.0.0.1 -U postgres -d postgres -c "drop database if exists \"$db\" with (force)" >/dev/null 2>&1 || true
    done
    redis-cli -h 127.0.0.1 --scan --pattern "${REDIS_PREFIX}*" | xargs -r -n 500 redis-cli -h 127.0.0.1 del >/dev/null 2>&1 || true
  fi
  # Keep only the logs of a failed run (the keys in bootstrap/, the Secret files, the app trees go).
  rm -rf "$work/auth-app" "$work/push-app" "$work/bootstrap" "$work/secrets" "$work/s3"
}
trap cleanup EXIT

# Own process group, so that a time-out stops the services it started too.
setsid node deploy/dist/rehearsal/main.js "$PWD" "$work/auth-app" "$work/push-app" "$work" &
pid=$!
limit="${REHEARSAL_TIMEOUT:-600}"
setsid bash -c "sleep $limit; echo 'rehearse: time limit ($limit s) reached' >&2; kill -TERM -- -$pid; sleep 20; kill -KILL -- -$pid" &
watchdog=$!
status=0
wait "$pid" || status=$?
if [ "$status" = 0 ]; then rm -rf "$work"; fi
exit "$status"
