# One image for both services: SERVICE=web (console, default) or SERVICE=api.
# The same two entry points `npm run cluster` starts (server/dist/main.js, web-server.mjs); the
# load balancer of docker-compose.yml renders deploy/nginx.conf, as the cluster runner does.
# docker build -t payshare . && docker run -e SERVICE=api ... / -e SERVICE=web ...
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production TZ=Asia/Shanghai PORT=3000 API_PORT=4000 API_HOST=0.0.0.0 DATA_DIR=/data SERVICE=web PAYMENTS_SANDBOX=false OAUTH_SANDBOX=false
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/server/drizzle ./server/drizzle
COPY --from=build /app/public ./public
COPY --from=build /app/web-server.mjs ./
VOLUME /data
EXPOSE 3000 4000
USER node
CMD ["sh", "-c", "if [ \"$SERVICE\" = api ]; then exec node --enable-source-maps server/dist/main.js; else exec node web-server.mjs; fi"]
