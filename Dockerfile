# One image for every service; the command picks which (docker-compose.yml). Two stages: the first installs all
# dependencies (better-sqlite3 and sharp bring prebuilt binaries for x64 and arm64) and compiles the TypeScript,
# the second keeps only the compiled JavaScript and the production dependencies, and runs as a non-root user.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY shared ./shared
COPY services ./services
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# A heap budget, as `npm start` gives it: without one V8 sizes the heap for the host's memory and lets it grow to
# about four times what is live before collecting (docs/operations/embedded.md, "Memory").
ENV NODE_OPTIONS=--max-old-space-size=1024
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY deploy/docker/healthcheck.mjs ./healthcheck.mjs
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# /healthz on PORT; a service without an HTTP port sets HEALTHCHECK_URL on its METRICS_PORT (the projector its
# /readyz, which fails while its projection is stalled; the notifier its /metrics).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "healthcheck.mjs"]
CMD ["node", "dist/services/all-in-one.js"]
