# One image for every role of the `platform` binary; the role is the argument:
#   docker run IMAGE run auditor model-context
#   docker run IMAGE run operator
# Build stage compiles TypeScript to dist/ (bin/platform.js prefers it) and
# prunes the dev dependencies; the final stage has node, the production
# node_modules, dist/ and bin/, and iptables for the pod's redirect init
# container (the same image), but no npm, npx, corepack or yarn.
#   docker build -t localhost/agent-platform/platform:dev .
# Other images from it (the agent runtime, per-auditor labels): docs/images.md.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
# One line per folder of tsconfig.build.json's "include" (a test keeps them in step).
COPY contract ./contract
COPY base ./base
COPY operator ./operator
COPY crds ./crds
COPY controllers ./controllers
COPY webhooks ./webhooks
COPY api ./api
COPY auditors ./auditors
COPY policy ./policy
COPY gateway ./gateway
COPY proxy ./proxy
COPY model ./model
COPY agent ./agent
COPY attestation ./attestation
COPY evidence ./evidence
COPY accesses ./accesses
# The management UI's bundle (Vite, a dev dependency: built before the prune), served by `run api` at /ui/.
COPY ui ./ui
RUN npm run build:ui
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev --ignore-scripts

FROM node:${NODE_VERSION}-bookworm-slim
# The auditor's primary request phase; one image serves several auditors, so
# the label names the phase every auditor serves. Override per auditor image
# with --build-arg AUDITOR_PHASE=response.
ARG AUDITOR_PHASE=request
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="agent-platform" \
      org.opencontainers.image.description="Agent platform operator, webhook and built-in auditors (role as argument)" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      io.platform.auditor="true" \
      io.platform.schema_version="2.0" \
      io.platform.phase="${AUDITOR_PHASE}" \
      io.platform.interfaces="health,claims,vocabulary"
ENV NODE_ENV=production
# iptables (nft backend) for the redirect init container; the user the platform
# sidecars run as (1337); no package managers at run time.
RUN apt-get update \
 && apt-get install -y --no-install-recommends iptables \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd -g 1337 platform-sidecar \
 && useradd -u 1337 -g 1337 -M -d /nonexistent -s /usr/sbin/nologin platform-sidecar \
 && rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* /root/.npm /tmp/*
WORKDIR /app
COPY --from=build --chown=root:root /src/package.json ./package.json
COPY --from=build --chown=root:root /src/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist ./dist
COPY --from=build --chown=root:root /src/bin ./bin
COPY --from=build --chown=root:root /src/ui/dist ./ui/dist
# A numeric non-root user (the image's `node` user) so that Kubernetes
# runAsNonRoot can verify it; the application files stay owned by root.
USER 1000:1000
EXPOSE 8080
ENTRYPOINT ["node", "/app/bin/platform.js"]
CMD ["run", "auditor", "model-context"]
