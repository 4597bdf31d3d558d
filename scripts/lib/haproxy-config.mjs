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
 * each checked on GET /readyz (a process that answers 503 — shutting down, or its database down —
 * gets no new requests; one degraded by Redis down keeps them), WebSocket upgrades (/realtime,
 * /realtime/live) kept open for an hour of silence, and X-Forwarded-For so rate limits see each
 * person's address (TRUST_PROXY=true).
 * `webs`: [{ name, host, port }]; `adminSocket`: a Unix socket path for HAProxy's runtime API
 * (`disable server web/web2`), left out when unset.
 */
export function haproxyConfig({ bind, webs, checkIntervalMs = 1000, adminSocket }) {
  if (webs.length === 0) throw new Error('haproxyConfig: at least one web process');
  for (const web of webs) if (!/^[A-Za-z0-9_.-]+$/.test(web.name)) throw new Error(`haproxyConfig: bad server name ${JSON.stringify(web.name)}`);
  return [
    'global',
    '  log stderr format raw local0 warning',
    '  maxconn 4096',
    ...(adminSocket ? [`  stats socket ${adminSocket} mode 600 level admin`] : []),
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
    // The address HAProxy saw, never one the client wrote: rate limits count per real address.
    '  http-request del-header x-forwarded-for',
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
    // A busy process answers its check late, not never: a slow check (up to 5 s) is not a failure, or
    // a load that saturates every process would take them all out at once. A process that died is
    // found at once by the connections refused to real traffic (observe layer4).
    '  timeout check 5s',
    `  default-server inter ${checkIntervalMs} fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down`,
    ...webs.map((web) => `  server ${web.name} ${web.host}:${web.port} check`),
    '',
  ].join('\n');
}
