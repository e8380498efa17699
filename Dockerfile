# syntax=docker/dockerfile:1
# specforge image: the CLI, and `specforge controller` (the NodePool controller) as its default command.
# Multi-stage: compile TypeScript with the dev toolchain, ship only lib/, bin/ and production dependencies on the
# Node 24 LTS runtime, as a numeric non-root user (so `runAsNonRoot` can be verified by the kubelet).

# Base images, as build arguments: BUILD_IMAGE runs the build stages (it needs Node 24, npm and a shell),
# RUNTIME_IMAGE is the last stage's base (Node 24 as `node` on PATH; no shell needed: nothing runs in that stage).
# Both default to NODE_IMAGE, the official image. Without a registry, see test/image/dockerfile.test.ts: it passes
# local archives (`--build-arg BUILD_IMAGE=oci-archive:…`) and builds this file with buildah.
ARG NODE_IMAGE=node:24-bookworm-slim
ARG BUILD_IMAGE=${NODE_IMAGE}
ARG RUNTIME_IMAGE=${NODE_IMAGE}

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the `node` devDependency would download a second Node binary; the image already has Node 24.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY schemas ./schemas
COPY src ./src
RUN npx tsc -p tsconfig.build.json

FROM ${BUILD_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# (npm's cache stays in this stage: only /app/node_modules reaches the image.)
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${RUNTIME_IMAGE}
ENV NODE_ENV=production
# A small young generation: the controller's garbage is short-lived watch and patch payloads; this keeps its peak
# RSS with 5,000 Nodes near 120 MB instead of ~190 MB (docs/benchmarks.md), at no measurable cost in speed.
ENV NODE_OPTIONS=--max-semi-space-size=4
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/lib ./lib
COPY schemas ./schemas
COPY bin ./bin
COPY package.json ./
# Nothing is written at run time: the Deployment mounts the root filesystem read-only.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["node", "/app/bin/specforge.js"]
CMD ["controller"]
