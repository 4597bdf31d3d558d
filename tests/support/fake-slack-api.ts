import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking Slack's Web API as its documentation describes it: form-encoded POSTs to
 * `/api/<method>` with a bearer token, answers `{ok:true,…}` or `{ok:false,error}` with HTTP 200,
 * 429 with Retry-After when rate limited, cursor paging on conversations.list, OAuth v2's
 * authorize page (the person allows at once: back to the redirect URI with the code) and oauth.v2.access, and the external file upload (getUploadURLExternal, the upload URL,
 * completeUploadExternal). Tests tell a method to answer otherwise (an error, a rate limit, HTML).
 */
export type SlackCall = { method: string; authorization: string | undefined; params: URLSearchParams; raw: Buffer };
type Override = { status?: number; headers?: Record<string, string>; body: string };

export type FakeSlackApi = {
  apiUrl: string;
  authorizeUrl: string;
  calls: SlackCall[];
  callsTo: (method: string) => SlackCall[];
  /** The next `times` calls of `method` get this answer. */
  override: (method: string, answer: Override, times?: number) => void;
  close: () => Promise<void>;
};

const BOT_TOKEN = 'xoxb-test-bot-token';
const CHANNELS = [
  [
    { id: 'C0RANDOM', name: 'random', is_private: false },
    { id: 'C0GENERAL', name: 'general', is_private: false },
  ],
  [{ id: 'G0LEADS', name: 'leads', is_private: true }],
];

export async function startFakeSlackApi(app: { clientId: string; clientSecret: string }): Promise<FakeSlackApi> {
  const calls: SlackCall[] = [];
  const overrides = new Map<string, { answer: Override; times: number }>();
  let base = '';
  const json = (response: http.ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (request.method === 'GET' && path === '/oauth/v2/authorize') {
        const query = new URL(request.url ?? '/', base).searchParams;
        const back = new URL(query.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'good-code');
        back.searchParams.set('state', query.get('state') ?? '');
        response.writeHead(302, { location: back.toString() }).end();
        return;
      }
      const method = path.replace(/^\/api\//, '');
      const params = new URLSearchParams(raw.toString('utf8'));
      calls.push({ method, authorization: request.headers.authorization, params, raw });
      const planned = overrides.get(method);
      if (planned && planned.times > 0) {
        planned.times -= 1;
        response.writeHead(planned.answer.status ?? 200, { 'content-type': 'application/json', ...planned.answer.headers });
        response.end(planned.answer.body);
        return;
      }
      const authed = request.headers.authorization === `Bearer ${BOT_TOKEN}`;
      if (path.startsWith('/upload/')) {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`OK - ${raw.length}`);
        return;
      }
      switch (method) {
        case 'oauth.v2.access': {
          const basic = request.headers.authorization?.startsWith('Basic ')
            ? Buffer.from(request.headers.authorization.slice(6), 'base64').toString('utf8').split(':').map(decodeURIComponent)
            : [params.get('client_id'), params.get('client_secret')];
          if (basic[0] !== app.clientId || basic[1] !== app.clientSecret) return json(response, { ok: false, error: 'invalid_client_id' });
          if (params.get('code') !== 'good-code' || !params.get('code_verifier')) return json(response, { ok: false, error: 'invalid_code' });
          return json(response, {
            ok: true,
            app_id: 'A0PARLEY',
            authed_user: { id: 'U0ADMIN' },
            scope: 'chat:write,chat:write.public,channels:read,groups:read,files:write',
            token_type: 'bot',
            access_token: BOT_TOKEN,
            bot_user_id: 'U0BOT',
            team: { id: 'T0ACME', name: 'Acme' },
            enterprise: null,
            is_enterprise_install: false,
          });
        }
        case 'auth.revoke':
          return json(response, authed ? { ok: true, revoked: true } : { ok: false, error: 'invalid_auth' });
      }
      if (!authed) return json(response, { ok: false, error: 'invalid_auth' });
      switch (method) {
        case 'conversations.list': {
          const page = params.get('cursor') === 'page-2' ? 1 : 0;
          return json(response, { ok: true, channels: CHANNELS[page], response_metadata: { next_cursor: page === 0 ? 'page-2' : '' } });
        }
        case 'chat.postMessage':
          if (!params.get('channel')) return json(response, { ok: false, error: 'channel_not_found' });
          return json(response, { ok: true, channel: params.get('channel'), ts: '1700000000.000100', message: { text: params.get('text') } });
        case 'files.getUploadURLExternal':
          return json(response, { ok: true, upload_url: `${base}/upload/F0FILE`, file_id: 'F0FILE' });
        case 'files.completeUploadExternal':
          return json(response, { ok: true, files: [{ id: 'F0FILE', title: JSON.parse(params.get('files') ?? '[{}]')[0]?.title ?? '' }] });
        default:
          return json(response, { ok: false, error: 'unknown_method' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${base}/api/`,
    authorizeUrl: `${base}/oauth/v2/authorize`,
    calls,
    callsTo: (method) => calls.filter((c) => c.method === method),
    override: (method, answer, times = 1) => overrides.set(method, { answer, times }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
