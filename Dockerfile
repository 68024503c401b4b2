# One image for every process: api, node, edge, standalone and the migration Job.
# docker build -t custom-domains:dev .   then   docker run custom-domains:dev dist/apps/api/src/main.js

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# The files belong to root and the process runs as the image's unprivileged `node` user (uid 1000):
# the code cannot be rewritten at run time, and the root filesystem can be mounted read-only.
USER 1000:1000
EXPOSE 3000 8080 8443
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["--max-semi-space-size=64", "dist/apps/standalone/src/main.js"]
