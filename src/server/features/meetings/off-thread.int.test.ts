import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_SEGMENTS, MAX_TRANSCRIPT_IMPORT_BYTES, MeetingDetailSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { cueSpeaker, cueWords, longVtt } from '#tests/support/long-transcript.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';

// Exports and transcript imports are seconds of CPU on a long meeting. Over real HTTP, the server
// must keep answering others meanwhile: /healthz is asked again and again, one request after the
// other, while they are in flight, and its answers are counted. On the server's own thread the work
// is one long stretch in which none come back: on the main thread a run counted 9 answers during
// the PDFs and 5 during the import, off it 1,303 and 584. (How long an answer can take: `npm run bench`.)
const MANY_ANSWERS = 50;

let t: TestApp;

/** Asks /healthz over and over until `work` settles; how many answers arrived before it did. */
async function healthzAnswersDuring<T>(work: Promise<T>): Promise<{ result: T; answers: number }> {
  let settled = false;
  const watched = work.finally(() => (settled = true));
  let answers = 0;
  const poll = (async () => {
    while (!settled) {
      const response = await fetch(`${t.baseUrl}/healthz`);
      await response.arrayBuffer();
      if (!settled && response.ok) answers++;
    }
  })();
  const result = await watched;
  await poll;
  return { result, answers };
}

const TWO_HOURS = 2400; // cues, one every 3 s

// On SQLite only: its driver is synchronous, so it is there that work left on the server's thread
// would stop the answers; PostgreSQL's queries wait off the thread anyway.
describe.skipIf(testDatabaseKind() === 'postgres')('while a long meeting is exported or imported, the server answers others', () => {
  let token: string;
  let meetingId: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, listen: true });
    const owner = await signUpUser(t.app, 'off-thread');
    token = owner.token;
    // Stored through the service: the notes a route would queue are not part of what is measured.
    const imported = await t.deps.services.meetings.importTranscript(owner.userId, { fileName: 'Two-hour review.vtt', content: longVtt(TWO_HOURS) });
    if (!('meeting' in imported)) throw new Error(`the long transcript was refused: ${JSON.stringify(imported)}`);
    meetingId = imported.meeting.id;
  }, 120_000);
  afterAll(() => t?.close());

  // 240 s is a hang guard: beside the speech engines and the browser in npm test, a loaded machine took over 120 s.
  it('five PDFs of a two-hour meeting asked at once: /healthz answers meanwhile, and each PDF is whole', { timeout: 240_000 }, async () => {
    const pdfs = Array.from({ length: 5 }, () =>
      fetch(`${t.baseUrl}/api/v1/meetings/${meetingId}/export?format=pdf`, { headers: { authorization: `Bearer ${token}` } }).then(async (response) => ({
        status: response.status,
        type: response.headers.get('content-type'),
        body: new Uint8Array(await response.arrayBuffer()),
      })),
    );
    const { result, answers } = await healthzAnswersDuring(Promise.all(pdfs));
    expect(answers).toBeGreaterThanOrEqual(MANY_ANSWERS);
    for (const pdf of result) {
      expect(pdf.status).toBe(200);
      expect(pdf.type).toBe('application/pdf');
      const { text } = await extractText(await getDocumentProxy(pdf.body), { mergePages: true });
      const words = text.replace(/\s+/g, ' ');
      expect(words).toContain('Two-hour review');
      expect(words).toContain(`[00:00] ${cueSpeaker(0)}: ${cueWords(0)}`);
      const last = TWO_HOURS - 1;
      expect(words).toContain(`[1:59:57] ${cueSpeaker(last)}: ${cueWords(last)}`);
      expect(words.match(/of the roadmap review/g)).toHaveLength(TWO_HOURS);
    }
  });

  it('the largest WebVTT import allowed: /healthz answers meanwhile, and the meeting has every cue', { timeout: 120_000 }, async () => {
    const cues = MAX_IMPORT_SEGMENTS;
    const vtt = longVtt(cues);
    expect(Buffer.byteLength(vtt)).toBeLessThanOrEqual(MAX_TRANSCRIPT_IMPORT_BYTES);
    const request = fetch(`${t.baseUrl}/api/v1/meetings/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 'Offsite.vtt', content: vtt }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    const { result, answers } = await healthzAnswersDuring(request);
    expect(answers).toBeGreaterThanOrEqual(MANY_ANSWERS);
    expect(result.status).toBe(201);
    const meeting = MeetingDetailSchema.parse(result.body);
    expect(meeting.title).toBe('Offsite');
    expect(meeting.segments).toHaveLength(cues);
    expect(meeting.segments.at(-1)).toMatchObject({ startMs: (cues - 1) * 3000, text: cueWords(cues - 1) });
    expect(meeting.speakers.map((s) => s.displayName)).toEqual([0, 1, 2, 3].map(cueSpeaker));
  });
});
