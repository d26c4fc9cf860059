# visibility-analytics: the HTTP API (and MCP at /mcp) over one DuckDB file.
# Build: docker build -t visibility-analytics .
# Run:   docker run -p 8787:8787 -v va-data:/data -e VA_ADMIN_TOKEN=... visibility-analytics
# (docs/DEPLOY.md; the DuckDB binding this repo locks is linux-x64 glibc, hence Debian slim.)

# Build stage: every dependency, then tsc.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY sql ./sql
COPY fixtures/spec-example ./fixtures/spec-example
RUN npm run build

# Runtime stage: production dependencies only, the build output, a non-root user.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    VA_HOST=0.0.0.0 \
    VA_PORT=8787 \
    VA_DB=/data/visibility.duckdb \
    VA_LOG_LEVEL=info
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY sql ./sql
COPY fixtures/spec-example ./fixtures/spec-example
COPY LICENSE README.md ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.VA_PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]
