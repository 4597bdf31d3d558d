# Parley's image (docs/deployment.md): Debian bookworm with Node 24, the offline speech engines
# (pocketsphinx from Debian; sherpa-onnx's runtime from npm, its models fetched into DATA_DIR at first
# start or with `npm run models`), ffmpeg and the PDF fonts. Runs as the unprivileged `node` user.
# One image for every role: ROLE=web serves HTTP on PORT, ROLE=worker runs the jobs (compose.yaml).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Compilers for a native addon without a prebuilt binary (better-sqlite3, @node-rs/argon2 have them for linux).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# onnxruntime-node would download binaries from outside the npm registry; sherpa-onnx brings its own runtime.
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# scripts/system-packages.mjs's RUNTIME_PACKAGES, and tini to pass signals on and reap children
# (the speech engines and the PDF and export hosts run as child processes).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us bzip2 \
      fonts-noto-core fonts-dejavu-core fonts-noto-cjk fonts-symbola ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
WORKDIR /app
# The whole built tree: dist/ is what runs; node_modules keeps tsx for `npm run models`,
# `npm run db:migrate` and `npm run events` inside the container.
COPY --from=build --chown=root:root /app /app
USER node
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000
# Ready: every dependency answers (a worker serves no HTTP: compose.yaml turns this off for it).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# What `npm start` runs once installed and built (scripts/start.mjs), without its install steps.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=16", "dist/server/main.js"]
