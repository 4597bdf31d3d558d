import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meetingEndpoints } from '#shared/contracts/meetings.ts';
import { settingsEndpoints } from '#shared/contracts/settings.ts';
import { shareEndpoints } from '#shared/contracts/sharing.ts';
import { statusEndpoints } from '#shared/contracts/status.ts';
import { api, download, requestPath } from './api-client.ts';
import { ApiError } from './api-error.ts';

const auth = vi.hoisted(() => ({
  getSession: vi.fn(async () => ({ data: { session: { access_token: 'old-token' } } })),
  refreshSession: vi.fn(async () => ({ data: { session: { access_token: 'new-token' } }, error: null })),
}));
vi.mock('#web/lib/supabase.ts', () => ({ loadSupabase: async () => ({ auth }) }));

const MEETING_ID = '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b';
const STATS = {
  meetings: 2,
  meetingsTranscribed: 1,
  hoursRecorded: 0.5,
  sampleMeetings: 0,
  samplesSettingUp: false,
  storageBytes: 10,
  storagePercent: 0,
  insights: { keyPoints: 1, actionItems: 2, decisions: 0, topics: 3 },
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>>;
const sent = () =>
  fetchMock.mock.calls.map(([url, init]) => ({ url: String(url), method: init?.method, authorization: new Headers(init?.headers).get('authorization') }));

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('api()', () => {
  it('calls the endpoint with the token and answers the parsed response', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ...STATS, extra: 'dropped' }));
    expect(await api(meetingEndpoints.stats)).toEqual(STATS);
    expect(sent()).toEqual([{ url: '/api/v1/meetings/stats', method: 'GET', authorization: 'Bearer old-token' }]);
  });

  it('fills path params, query and a JSON body from the input', async () => {
    expect(requestPath(meetingEndpoints.list, { query: { q: 'road map', status: 'ready', page: 2 } })).toBe('/api/v1/meetings?q=road+map&status=ready&page=2');
    fetchMock.mockResolvedValueOnce(json(200, { settings: {}, savedTabs: [] }));
    // Only the request matters here, not the (unreadable) answer.
    await api(settingsEndpoints.privacy, { body: { autoDelete: 'never' } }).catch(() => undefined);
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('PUT');
    expect(init?.body).toBe('{"autoDelete":"never"}');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
  });

  it('sends no token to a public endpoint', async () => {
    fetchMock.mockResolvedValueOnce(json(404, { error: { code: 'NOT_FOUND', message: 'This link is no longer available.' } }));
    await expect(api(shareEndpoints.shared, { params: { token: 'a'.repeat(43) } })).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(sent()[0]?.authorization).toBeNull();
    expect(auth.getSession).not.toHaveBeenCalled();
  });

  it('on a 401 refreshes the session once and retries once with the new token', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in again.' } })).mockResolvedValueOnce(json(200, STATS));
    expect(await api(meetingEndpoints.stats)).toEqual(STATS);
    expect(auth.refreshSession).toHaveBeenCalledOnce();
    expect(sent().map((r) => r.authorization)).toEqual(['Bearer old-token', 'Bearer new-token']);
  });

  it('still 401 after the refresh: the server error as an ApiError, no third try', async () => {
    fetchMock.mockImplementation(async () => json(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in again.' } }));
    const error = await api(meetingEndpoints.stats).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: 'Sign in again.' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('an answer that does not match the endpoint is BAD_RESPONSE, not a crash', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { meetings: 'many' })).mockResolvedValueOnce(new Response('<html>proxy</html>', { status: 200 }));
    await expect(api(meetingEndpoints.stats)).rejects.toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
    await expect(api(statusEndpoints.get, {}, { badResponseMessage: 'Unreadable status.' })).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: 'Unreadable status.',
    });
  });

  it('keeps the server code, message and validation details; a body without them is UNKNOWN', async () => {
    const details = [{ path: ['title'], message: 'Too long' }];
    fetchMock
      .mockResolvedValueOnce(json(400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid request', details } }))
      .mockResolvedValueOnce(new Response('Bad gateway', { status: 502 }));
    await expect(api(meetingEndpoints.update, { params: { id: MEETING_ID }, body: { title: 'x' } })).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details,
    });
    await expect(api(meetingEndpoints.stats)).rejects.toMatchObject({ status: 502, code: 'UNKNOWN', message: 'Request failed (502)' });
  });

  it('without a connection says so plainly; an abort stays an abort', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockRejectedValueOnce(new DOMException('The operation was aborted.', 'AbortError'));
    await expect(api(meetingEndpoints.stats)).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK',
      message: 'Parley cannot reach its server. Check your connection and try again.',
    });
    await expect(api(meetingEndpoints.stats)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('download()', () => {
  it('answers the file and its RFC 8187 name', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('transcript', { headers: { 'content-disposition': `attachment; filename="Cafe.txt"; filename*=UTF-8''Caf%C3%A9.txt` } }),
    );
    const file = await download(meetingEndpoints.export, { params: { id: MEETING_ID }, query: { format: 'txt' } });
    expect(file.fileName).toBe('Café.txt');
    expect(await file.blob.text()).toBe('transcript');
    expect(sent()[0]?.url).toBe(`/api/v1/meetings/${MEETING_ID}/export?format=txt`);
  });
});
