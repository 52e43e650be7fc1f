# Loupe, the GitHub App, for operators who deploy containers. Build: `docker build -t loupe .`
# Run:   docker run -p 3000:3000 --env-file loupe.env -v loupe-state:/var/lib/loupe loupe
# The install and start commands below are the ones test/e2e/production-install.test.ts runs in a
# clean copy of the repository (outside Docker): keep them in step.
FROM node:24-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    LOUPE_STATE_DIR=/var/lib/loupe

WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only; the `node` package brings the pinned Node 24 that runs Loupe.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY app.yml .env.example ./
COPY bin ./bin
COPY src ./src

# Not root: the app files stay root-owned (read-only to Loupe); only the state directory is its own.
RUN mkdir -p /var/lib/loupe && chown node:node /var/lib/loupe
USER node
VOLUME ["/var/lib/loupe"]
EXPOSE 3000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node_modules/.bin/node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# What `npm start` runs, without npm in between: SIGTERM reaches Loupe, which drains its queue.
CMD ["node_modules/.bin/node", "src/server.ts"]
