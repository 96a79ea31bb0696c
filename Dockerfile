# syntax=docker/dockerfile:1.7
# Both service images, from one shared build stage. Build from the repository root, one target each:
#   docker build --target auth -t secret-push-auth .
#     token service (default command), migrations (node dist/main-migrate.js) and the operator CLI
#     (node dist/cli/main.js clients …)
#   docker build --target push -t secret-push-push .
#     push API (default command), worker and migrations differ only by command:
#     node dist/main-api.js | node dist/main-worker.js | node dist/main-migrate.js; the operator
#     CLI (users, personal tokens): node dist/cli/main.js users …
# Always name the target: without --target Docker builds the last stage (push).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Shared by both targets (built once when both are built): one install from the lockfile, one
# compilation of the production sources (tsconfig.build.json: no tests, no testing.ts), then one
# production-only file tree per service in /out/<service>, checked to hold no compiled test file.
FROM ${NODE_IMAGE} AS build
ENV CI=true PNPM_HOME=/pnpm
RUN npm install --global --no-audit --no-fund pnpm@11.28.11
WORKDIR /src
# Dependencies first (cached while only sources change): the store is filled from the lockfile alone.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm fetch --frozen-lockfile --store-dir /pnpm/store
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --store-dir /pnpm/store \
 && pnpm exec tsc -b services/auth/tsconfig.build.json services/push/tsconfig.build.json \
 && pnpm --filter @secret-push/auth deploy --prod --legacy --offline --store-dir /pnpm/store /out/auth \
 && pnpm --filter @secret-push/push deploy --prod --legacy --offline --store-dir /pnpm/store /out/push \
 && rm -rf /out/*/src /out/*/tsconfig*.json \
 && bash scripts/check-dist.sh /out/auth /out/push

# What both images share at run time (not an image of its own).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The image's "node" user (uid 1000); the Kubernetes manifests pin the same uid.
USER 1000:1000

FROM runtime AS auth
ENV AUTH_HOST=0.0.0.0 AUTH_PORT=4000
# Owned by root and read-only for the service user: the process cannot change its own code.
COPY --from=build --chown=root:root /out/auth ./
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.AUTH_PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]

FROM runtime AS push
ENV PUSH_HOST=0.0.0.0 PUSH_PORT=3000 PUSH_WORKER_HOST=0.0.0.0 PUSH_WORKER_PORT=3001
# Owned by root and read-only for the service user: the process cannot change its own code.
COPY --from=build --chown=root:root /out/push ./
EXPOSE 3000 3001
# Checks the API's port; the worker's container overrides it (docker-compose.yml: port 3001).
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PUSH_PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main-api.js"]
