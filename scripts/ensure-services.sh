#!/usr/bin/env bash
# Makes sure the local PostgreSQL and Redis this project uses are running; starts them if not
# (with the commands the machine's environment notes give). Never touches them when they run.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

if ! pg_up; then
  echo "services: starting PostgreSQL" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start >&2 || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "services: PostgreSQL is not reachable at 127.0.0.1:5432" >&2; exit 1; }
fi
if ! redis_up; then
  echo "services: starting Redis" >&2
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log >&2
  for _ in $(seq 1 30); do redis_up && break; sleep 0.5; done
  redis_up || { echo "services: Redis is not reachable at 127.0.0.1:6379" >&2; exit 1; }
fi
