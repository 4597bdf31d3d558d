import type http from 'node:http';
import { startFakeOAuthServer, type FakeOAuthServer } from './fake-oauth-server.ts';

/**
 * A local Microsoft: the identity platform's v2.0 endpoints (`/<tenant>/oauth2/v2.0/authorize` and
 * `/token`, PKCE checked, refresh tokens rotated, the scopes asked again on refresh) and the Microsoft
 * Graph v1.0 calls the Teams sync makes, with Graph's documented JSON: `/me/calendar`,
 * `/me/calendarView` (startDateTime/endDateTime required, pages linked by `@odata.nextLink`),
 * `/me/onlineMeetings?$filter=JoinWebUrl eq '…'`, a meeting's `/transcripts` and `/recordings` (paged
 * too), a transcript's `/content?$format=text/vtt` and a recording's `/content`. Errors are Graph's `{"error":{"code","message"}}`;
 * `fail` makes the next matching requests answer one (or stall, or send broken JSON).
 */

export type FakePerson = { name: string; address: string };
export type FakeTranscript = { id: string; createdDateTime: string; contentCorrelationId: string; vtt: string };
export type FakeRecording = {
  id: string;
  createdDateTime: string;
  contentCorrelationId: string;
  /** What `…/recordings/{id}/content` answers (Teams records video/mp4). */
  content?: { type: string; bytes: Buffer };
};
export type FakeTeamsMeeting = {
  eventId: string;
  subject: string;
  /** The occurrence's start and end (UTC ISO). */
  start: string;
  end: string;
  joinUrl: string;
  onlineMeetingId: string;
  organizer: FakePerson;
  attendees: (FakePerson & { type?: 'required' | 'optional' | 'resource' })[];
  transcripts: FakeTranscript[];
  recordings: FakeRecording[];
};

export type FakeAnswer = { status: number; code?: string; message?: string; headers?: Record<string, string> } | 'stall' | 'malformed';

export type FakeMicrosoft = {
  /** MICROSOFT_LOGIN_URL and MICROSOFT_GRAPH_URL for the app under test. */
  loginUrl: string;
  graphUrl: string;
  oauth: FakeOAuthServer;
  /** The signed-in person's calendar owner. */
  owner: FakePerson;
  /** The calendar's Teams meetings (tests add and change them). */
  meetings: FakeTeamsMeeting[];
  /** Every Graph request's path and query, in order. */
  requests: string[];
  /** The next `times` Graph requests whose path and query match answer this. */
  fail: (match: RegExp, answer: FakeAnswer, times?: number) => void;
  /** Forgets failures not yet used. */
  heal: () => void;
  close: () => Promise<void>;
};

const PAGE_SIZE = 2;

const graphError = (response: http.ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': 'fake-request' } } }));
};

export async function startFakeMicrosoft(options: { clientId: string; clientSecret: string; tenant?: string }): Promise<FakeMicrosoft> {
  const tenant = options.tenant ?? 'common';
  const meetings: FakeTeamsMeeting[] = [];
  const requests: string[] = [];
  const failures: { match: RegExp; answer: FakeAnswer; left: number }[] = [];
  const stalled: http.ServerResponse[] = [];
  const owner: FakePerson = { name: 'Ada Lovelace', address: 'ada@contoso.com' };
  let base = '';

  const json = (response: http.ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal' }).end(JSON.stringify(body));
  };
  /** A collection page: `$skiptoken` is where it starts; the link carries the rest of the query. */
  const page = (response: http.ServerResponse, url: URL, context: string, items: unknown[]) => {
    const from = Number(url.searchParams.get('$skiptoken') ?? '0');
    const top = Math.min(PAGE_SIZE, Number(url.searchParams.get('$top') ?? PAGE_SIZE));
    const body: Record<string, unknown> = { '@odata.context': `${base}/v1.0/$metadata#${context}`, value: items.slice(from, from + top) };
    if (from + top < items.length) {
      const next = new URL(url.toString(), base);
      next.searchParams.set('$skiptoken', String(from + top));
      // Graph writes its system query options with a bare `$`.
      body['@odata.nextLink'] = `${base}${next.pathname}${next.search.replaceAll('%24', '$')}`;
    }
    json(response, body);
  };
  const meetingById = (id: string) => meetings.find((m) => m.onlineMeetingId === id);

  const graph = (request: http.IncomingMessage, response: http.ServerResponse, url: URL): boolean => {
    if (!url.pathname.startsWith('/v1.0/')) return false;
    const path = url.pathname.slice('/v1.0'.length);
    requests.push(`${path}${url.search}`);
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!fake.oauth.isValidAccessToken(token)) {
      graphError(response, 401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.');
      return true;
    }
    const failure = failures.find((f) => f.left > 0 && f.match.test(`${path}${url.search}`));
    if (failure) {
      failure.left--;
      if (failure.answer === 'stall') {
        stalled.push(response);
        return true;
      }
      if (failure.answer === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"@odata.context":"https://graph.microsoft.com/v1.0/$metadata","value":[{"id":');
        return true;
      }
      const { status, code, message, headers } = failure.answer;
      graphError(response, status, code ?? 'UnknownError', message ?? '', headers);
      return true;
    }
    if (request.method !== 'GET') {
      graphError(response, 405, 'Request_BadRequest', 'Specified HTTP method is not allowed for the request target.');
      return true;
    }
    if (path === '/me/calendar') {
      json(response, { '@odata.context': `${base}/v1.0/$metadata#users('me')/calendar`, id: 'AAMkAGI2', name: 'Calendar', owner });
      return true;
    }
    if (path === '/me/calendarView') {
      const from = Date.parse(url.searchParams.get('startDateTime') ?? '');
      const to = Date.parse(url.searchParams.get('endDateTime') ?? '');
      if (Number.isNaN(from) || Number.isNaN(to)) {
        graphError(
          response,
          400,
          'ErrorInvalidParameter',
          'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
        );
        return true;
      }
      // As asked with Prefer: outlook.timezone="UTC": times without an offset, seven decimals.
      const at = (iso: string) => ({ dateTime: new Date(iso).toISOString().replace('Z', '0000'), timeZone: 'UTC' });
      const events = meetings
        .filter((m) => Date.parse(m.start) < to && Date.parse(m.end) > from)
        .sort((a, b) => a.start.localeCompare(b.start))
        .map((m) => ({
          id: m.eventId,
          subject: m.subject,
          isCancelled: false,
          start: at(m.start),
          end: at(m.end),
          isOnlineMeeting: true,
          onlineMeetingProvider: 'teamsForBusiness',
          onlineMeeting: { joinUrl: m.joinUrl },
          organizer: { emailAddress: m.organizer },
          attendees: m.attendees.map(({ type, ...person }) => ({
            type: type ?? 'required',
            status: { response: 'accepted', time: m.start },
            emailAddress: person,
          })),
        }));
      // Not a Teams meeting: left out by the sync.
      events.push({
        id: 'lunch',
        subject: 'Lunch',
        isCancelled: false,
        start: at(new Date(from + 3_600_000).toISOString()),
        end: at(new Date(from + 7_200_000).toISOString()),
        isOnlineMeeting: false,
        onlineMeetingProvider: 'unknown',
        onlineMeeting: null as unknown as { joinUrl: string },
        organizer: { emailAddress: owner },
        attendees: [],
      });
      page(response, url, "users('me')/calendarView", events);
      return true;
    }
    if (path === '/me/onlineMeetings') {
      const filter = url.searchParams.get('$filter') ?? '';
      const match = /^JoinWebUrl eq '((?:[^']|'')*)'$/i.exec(filter);
      if (!match) {
        graphError(response, 400, 'BadRequest', 'Filter expression is not supported: only JoinWebUrl eq is.');
        return true;
      }
      const joinUrl = match[1]!.replaceAll("''", "'");
      const meeting = meetings.find((m) => m.joinUrl === joinUrl);
      json(response, {
        '@odata.context': `${base}/v1.0/$metadata#users('me')/onlineMeetings`,
        value: meeting
          ? [{ id: meeting.onlineMeetingId, subject: meeting.subject, joinWebUrl: meeting.joinUrl, startDateTime: meeting.start, endDateTime: meeting.end }]
          : [],
      });
      return true;
    }
    const parts = /^\/me\/onlineMeetings\/([^/]+)\/(transcripts|recordings)(?:\/([^/]+)(\/content)?)?$/.exec(path);
    const meeting = parts ? meetingById(decodeURIComponent(parts[1]!)) : undefined;
    if (!parts || !meeting) {
      graphError(response, 404, 'NotFound', 'The requested resource was not found.');
      return true;
    }
    const [, , kind, itemId, content] = parts;
    if (!itemId) {
      const items =
        kind === 'transcripts'
          ? meeting.transcripts.map(({ vtt: _vtt, ...t }) => ({
              ...t,
              meetingId: meeting.onlineMeetingId,
              transcriptContentUrl: `${base}/v1.0/me/onlineMeetings/${meeting.onlineMeetingId}/transcripts/${t.id}/content`,
              meetingOrganizer: { user: { id: 'ada-id', displayName: null } },
            }))
          : meeting.recordings.map(({ content: _content, ...r }) => ({
              ...r,
              meetingId: meeting.onlineMeetingId,
              recordingContentUrl: `${base}/v1.0/me/onlineMeetings/${meeting.onlineMeetingId}/recordings/${r.id}/content`,
            }));
      page(response, url, `users('me')/onlineMeetings('${meeting.onlineMeetingId}')/${kind}`, items);
      return true;
    }
    const recording = kind === 'recordings' ? meeting.recordings.find((r) => r.id === decodeURIComponent(itemId)) : undefined;
    if (recording?.content && content) {
      response
        .writeHead(200, { 'content-type': recording.content.type, 'content-length': String(recording.content.bytes.length) })
        .end(recording.content.bytes);
      return true;
    }
    const transcript = kind === 'transcripts' ? meeting.transcripts.find((t) => t.id === decodeURIComponent(itemId)) : undefined;
    if (!transcript || !content) {
      graphError(response, 404, 'NotFound', 'The requested resource was not found.');
      return true;
    }
    if (url.searchParams.get('$format') !== 'text/vtt') {
      // Graph answers a .docx without it; the sync always asks for WebVTT.
      graphError(response, 400, 'BadRequest', 'This test server serves transcripts as text/vtt only.');
      return true;
    }
    response.writeHead(200, { 'content-type': 'text/vtt' }).end(transcript.vtt);
    return true;
  };

  const fake: FakeMicrosoft = {
    loginUrl: '',
    graphUrl: '',
    oauth: await startFakeOAuthServer({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      paths: { authorize: `/${tenant}/oauth2/v2.0/authorize`, token: `/${tenant}/oauth2/v2.0/token`, revoke: `/${tenant}/oauth2/v2.0/revoke` },
      refreshNeedsScope: true,
      rotateRefreshTokens: true,
      extra: (request, response, url) => graph(request, response, url),
    }),
    owner,
    meetings,
    requests,
    fail: (match, answer, times = 1) => {
      failures.push({ match, answer, left: times });
    },
    heal: () => {
      failures.length = 0;
    },
    close: async () => {
      for (const response of stalled) response.destroy();
      await fake.oauth.close();
    },
  };
  base = fake.oauth.url;
  fake.loginUrl = fake.oauth.url;
  fake.graphUrl = `${fake.oauth.url}/v1.0`;
  return fake;
}

/** A Teams transcript as Graph's `$format=text/vtt` answers it: cue ids, voice tags naming the speakers. */
export function teamsVtt(lines: readonly (readonly [speaker: string, text: string])[]): string {
  const time = (seconds: number) => `00:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.000`;
  return `WEBVTT\n\n${lines
    .map(([speaker, text], i) => `8f1a${i}/${i + 10}-0\n${time(i * 5)} --> ${time(i * 5 + 4)}\n<v ${speaker}>${text}</v>\n`)
    .join('\n')}`;
}

/** A recording to serve: `seconds` of a 440 Hz tone as 16 kHz mono WAV (ffmpeg reads it as any upload). */
export function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = rate * seconds;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8_000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
