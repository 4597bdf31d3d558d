// The Debian packages Parley uses, with the file that proves each is installed.
// `npm start` needs the runtime ones; `npm test` needs those plus the test-only ones.
export const RUNTIME_PACKAGES = [
  { name: 'ffmpeg', provides: '/usr/bin/ffmpeg', why: 'decoding recordings to 16 kHz speech audio' },
  { name: 'pocketsphinx', provides: '/usr/bin/pocketsphinx_continuous', why: 'the offline transcription engine' },
  { name: 'pocketsphinx-en-us', provides: '/usr/share/pocketsphinx/model/en-us/en-us', why: "the offline engine's English model" },
  { name: 'bzip2', provides: '/usr/bin/bzip2', why: 'unpacking speech models (npm run models -- fetch)' },
  // PDF exports embed these (src/server/features/meetings/pdf-fonts.ts): a fallback chain so any script prints.
  { name: 'fonts-noto-core', provides: '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf', why: 'PDF exports: Latin, Greek, Cyrillic and other scripts' },
  { name: 'fonts-dejavu-core', provides: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', why: 'PDF exports: symbols and arrows' },
  { name: 'fonts-noto-cjk', provides: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', why: 'PDF exports: Chinese, Japanese and Korean' },
  { name: 'fonts-symbola', provides: '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf', why: 'PDF exports: emoji (monochrome)' },
];

export const TEST_PACKAGES = [
  { name: 'chromium', provides: '/usr/bin/chromium', why: 'browser tests (driven by playwright-core)' },
  { name: 'flite', provides: '/usr/bin/flite', why: 'generating multi-voice test meetings' },
  { name: 'sox', provides: '/usr/bin/sox', why: 'preparing test audio' },
  { name: 'redis-server', provides: '/usr/bin/redis-server', why: 'the Redis adapters (shared rate limits), tested against a real Redis' },
  { name: 'haproxy', provides: '/usr/sbin/haproxy', why: "npm run cluster's load balancer configuration, tested against a real HAProxy" },
];

/** `npm run cluster` (and the scale bench) run these beside the runtime ones. */
export const CLUSTER_PACKAGES = [
  { name: 'haproxy', provides: '/usr/sbin/haproxy', why: 'the load balancer in front of the web processes (npm run cluster)' },
  { name: 'redis-server', provides: '/usr/bin/redis-server', why: "the cluster's shared rate limits (npm run cluster)" },
];
