// The HAProxy configuration `npm run cluster` runs its web processes behind (docs/deployment.md).
// Plain Node, no dependencies, like the scripts that use it.

/**
 * Bodies larger than this are refused at the proxy with 413. The largest request Parley accepts is a
 * transcript import (two 5 MiB files and their form) and the tus chunks the web app sends are 8 MiB;
 * everything below this goes through to the server, whose own limits answer in its own words.
 */
export const PROXY_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * HAProxy's configuration: HTTP on `bind` (host:port) to every web process in turn (round robin),
 * each checked on GET /readyz (a process that answers 503 — shutting down, or its database or Redis
 * down — gets no new requests), WebSocket upgrades (/realtime, /realtime/live) kept open for an hour
 * of silence, and X-Forwarded-For so rate limits see each person's address (TRUST_PROXY=true).
 * `webs`: [{ name, host, port }].
 */
export function haproxyConfig({ bind, webs, checkIntervalMs = 1000 }) {
  if (webs.length === 0) throw new Error('haproxyConfig: at least one web process');
  for (const web of webs) if (!/^[A-Za-z0-9_.-]+$/.test(web.name)) throw new Error(`haproxyConfig: bad server name ${JSON.stringify(web.name)}`);
  return [
    'global',
    '  log stderr format raw local0 warning',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option httplog',
    '  option forwardfor',
    '  option http-server-close',
    '  timeout connect 5s',
    '  timeout client 120s',
    // The server answers the last chunk of an upload after decoding and storing the whole file.
    '  timeout server 300s',
    '  timeout http-request 120s',
    // A WebSocket (realtime events, the live transcript) stays open between messages.
    '  timeout tunnel 1h',
    '',
    'frontend parley',
    `  bind ${bind}`,
    `  http-request deny deny_status 413 if { req.hdr_val(content-length) gt ${PROXY_MAX_BODY_BYTES} }`,
    '  default_backend web',
    '',
    'backend web',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    // A process that died before answering: a request it never received goes to another; one it may
    // have acted on is retried elsewhere only when reading (a POST replayed could act twice).
    '  retry-on conn-failure empty-response',
    '  http-request disable-l7-retry if !METH_GET !METH_HEAD',
    '  option redispatch 1',
    `  default-server inter ${checkIntervalMs} fall 2 rise 1`,
    ...webs.map((web) => `  server ${web.name} ${web.host}:${web.port} check`),
    '',
  ].join('\n');
}
