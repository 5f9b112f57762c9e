# Quiver's container image: built in one stage, run from a slim one as an unprivileged user.
#   docker build -t quiver .
#   docker run -p 2333:2333 -v quiver-data:/var/lib/quiver quiver
FROM node:22-bookworm-slim AS build
# swagger-ui-dist's dependency @scarf/scarf would report the install; package.json opts out too.
ENV SCARF_ANALYTICS=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY test ./test
COPY bench ./bench
COPY examples ./examples
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The web console is served from its source files.
COPY src/ui ./src/ui
COPY deploy/docker/quiver.toml /etc/quiver/quiver.toml
RUN chmod 755 dist/src/bin/main.js && ln -s /app/dist/src/bin/main.js /usr/local/bin/quiver \
 && mkdir -p /var/lib/quiver && chown node:node /var/lib/quiver
USER node
VOLUME /var/lib/quiver
EXPOSE 2333
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:2333/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["quiver"]
CMD ["serve", "--config", "/etc/quiver/quiver.toml"]
