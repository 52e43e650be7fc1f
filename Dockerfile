# Loupe, the GitHub App, for operators who deploy containers. Build: `docker build -t loupe .`
# Run:   docker run -p 3000:3000 --env-file loupe.env -v loupe-state:/var/lib/loupe loupe
# The install and start commands below are the ones test/e2e/install/production-install.test.ts runs in a
# clean copy of the repository (outside Docker): keep them in step.

# The install stage: npm, and a Node to run its scripts, are needed only to install.
FROM node:24-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only; the `node` package brings the pinned Node 24 that runs Loupe.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# The image: no Node of its own, so the one that runs Loupe is the pinned one from the `node`
# package (node_modules/.bin/node), and there is one Node runtime in the image, not two.
FROM debian:bookworm-slim

# LOUPE_LISTEN_HOST wins over HOST: `--env-file` replaces the image's HOST, and .env.example says
# HOST=localhost, which would hide the server on the container's loopback.
# PATH: `loupe` is the CI/CD component's command (templates/review.yml runs `loupe gitlab-ci`).
ENV NODE_ENV=production \
    PATH=/app/bin:$PATH \
    LOUPE_LISTEN_HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    LOUPE_STATE_DIR=/var/lib/loupe

WORKDIR /app
COPY --from=install /app/node_modules ./node_modules
COPY package.json app.yml .env.example ./
COPY bin ./bin
COPY src ./src

# Not root: the app files stay root-owned (read-only to Loupe); only the state directory is its own.
RUN groupadd --system --gid 1000 node \
 && useradd --system --uid 1000 --gid node --no-create-home --home-dir /nonexistent node \
 && mkdir -p /var/lib/loupe && chown node:node /var/lib/loupe
USER node
VOLUME ["/var/lib/loupe"]
EXPOSE 3000

# /healthz at the container's own address, as the published port reaches it (not 127.0.0.1).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node_modules/.bin/node", "src/healthcheck.ts"]

# What `npm start` runs, without npm in between: SIGTERM reaches Loupe, which drains its queue.
CMD ["node_modules/.bin/node", "src/server.ts"]
