#!/usr/bin/env bash
# Static checks of the deployment files (docs/deployment.md, "Kubernetes"): docker-compose.yml against the
# compose-spec schema and Debian's docker-compose 1.29, the root Dockerfile (dockerfile-utils lint,
# build rules, and per image target: non-root, production dependencies only, healthcheck, entry
# point), that compose and k8s run exactly those targets' images, .dockerignore, and every
# kustomization rendered by `kubectl kustomize`, each object checked against the Kubernetes schemas
# (types, enums, unknown fields) and the project's rules.
# Installs what it needs: the workspace (scripts/setup.sh) and, when missing and run as root,
# docker-compose from Debian (non-interactive). kubectl comes with the machine image.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/toolchain.sh || exit 1

if ! command -v kubectl >/dev/null 2>&1; then
  echo "validate-deploy: kubectl (>= 1.27, for kustomize v5) is required and not installed" >&2
  exit 1
fi
if ! command -v docker-compose >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "validate-deploy: installing Debian's docker-compose (without the Docker engine)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends docker-compose >&2
  else
    echo "validate-deploy: docker-compose is missing; install it: apt-get install --no-install-recommends docker-compose" >&2
    exit 1
  fi
fi
node deploy/dist/validate/main.js "$PWD"
