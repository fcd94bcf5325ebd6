# The service's production image (docs/operations.md, "Container image"). One image runs the API
# (the default command), the worker, the operator CLI and the migrations:
#
#   docker build -t checkin-integration-service .
#   docker run --env-file deploy/production.env checkin-integration-service                      # API
#   docker run --env-file deploy/production.env checkin-integration-service node dist/worker.js  # worker
#
# Base: the official Node.js image, Debian 12 slim, on Node.js 24, the LTS line package.json's
# engines accept and CI tests on (supported until April 2028). A tag, not a digest: the tag
# follows the newest Node.js release of the line and Debian's security fixes on every rebuild,
# where a digest would freeze both.
ARG NODE_VERSION=24

# Build stage: every dependency, then `npm run build` (scripts/build-app.js) into dist/.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the build needs none (tsc), and npm 11 runs none it was not told to allow.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY nest-cli.json tsconfig.json tsconfig.build.json tsconfig.migrations.json ./
COPY scripts/build-app.js ./scripts/
COPY src ./src
COPY migrations ./migrations
COPY clients/typescript ./clients/typescript
RUN npm run build

# Final stage: production dependencies only, the built dist/, tini as PID 1, a user that is not
# root. test/deployment-image.e2e-spec.ts starts dist/ on exactly these dependencies.
FROM node:${NODE_VERSION}-bookworm-slim
# What the image is (OCI labels): the release (CHANGELOG.md; kept in step with package.json by
# test/integration/release-versions.spec.ts) and the commit it was built from:
#   docker build --build-arg REVISION="$(git rev-parse HEAD)" -t checkin-integration-service:0.2.0 .
ARG REVISION=unknown
LABEL org.opencontainers.image.title="checkin-integration-service" \
      org.opencontainers.image.version="0.2.0" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.description="Wellbeing check-in integration service: API, worker, CLI and migrations"
# tini (Debian's) is PID 1: it passes SIGTERM and SIGINT to the process and reaps orphans.
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
# A young generation of 64 MiB a semi-space instead of V8's 16: the API allocates much short-lived
# memory per request, and fewer scavenges cost it 5-12 % less CPU a request (GET /groups; a worker
# about 4 % a delivery) for about 80 MB more peak memory under load (docs/operations.md,
# "Production"). The benchmark starts every server with this value (bench/lib.js reads it here).
# A NODE_OPTIONS given at run time replaces it: keep the flag in it.
ENV NODE_OPTIONS=--max-semi-space-size=64
WORKDIR /app
# package.json is also read at run time (the OpenAPI document's version).
COPY package.json package-lock.json ./
# Production dependencies only. `--omit=optional` also leaves out TypeScript, which npm would
# otherwise install as an optional peer of @nestjs/swagger, cosmiconfig and valibot (nothing loads
# it at run time), and msgpackr's optional native helper (Bull falls back to its JavaScript one).
# Prettier is not here either: package.json's overrides replace nest-commander's shell-completion
# helper, its only production dependent, with an empty package (docs/operations.md, "Dependencies").
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force
# The compiled service and migrations, with the templates, stylesheet and catalogues the build
# copies beside them; owned by root, so the process cannot change its own code.
COPY --from=build /app/dist ./dist
# The one folder the process may write: MAIL_DIR (var/mail) when MAIL_TRANSPORT=file.
RUN mkdir -p var && chown 1000:1000 var
# The image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# The API, and the operations ports of the API and the worker (OPS_HOST=0.0.0.0 to reach them).
EXPOSE 3000 9464 9465
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
