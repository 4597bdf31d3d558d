import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeetingListResponseSchema, MeetingSearchResponseSchema } from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

/**
 * Many searches at once, as several people (or tabs) search together: on SQLite they run on the read
 * threads (db/sqlite-read-pool.ts), several at a time, each its own transaction; every answer must
 * be the one its own query asks for, exactly as one at a time, and never another person's.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

/** Words no sample meeting holds, one meeting each. */
const WORDS = ['quokka', 'zeppelin', 'narwhal', 'axolotl', 'marmoset', 'pangolin'];

describe('searches at once', () => {
  it('each answers its own meetings and passages, as it would alone', async () => {
    const owner = await signUpUser(t.app, 'search-at-once');
    const other = await signUpUser(t.app, 'search-at-once-other');
    const ids = new Map<string, string>();
    for (const [i, word] of WORDS.entries()) {
      const created = await t.deps.services.meetings.createSample(owner.userId, {
        title: `Meeting ${i}`,
        startedAt: `2026-0${i + 1}-10T09:00:00.000Z`,
        durationSeconds: 600,
        participants: [],
        summary: '',
        transcript: {
          speakers: [{ label: 'Speaker 1', displayName: 'Priya Raman' }],
          segments: [
            { speaker: 0, startMs: 1000, endMs: 4000, text: `We spoke about the ${word} at length.` },
            { speaker: 0, startMs: 5000, endMs: 8000, text: 'Nothing else came up.' },
          ],
        },
      });
      ids.set(word, created.id);
    }
    await t.deps.services.meetings.createSample(other.userId, {
      title: 'Not yours',
      startedAt: '2026-03-01T09:00:00.000Z',
      durationSeconds: 600,
      participants: [],
      summary: '',
      transcript: { speakers: [{ label: 'Speaker 1', displayName: null }], segments: [{ speaker: 0, startMs: 0, endMs: 3000, text: WORDS.join(' ') }] },
    });

    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${owner.token}` } });
    const across = WORDS.flatMap((word) => [word, word, word, word]);
    const [lists, insides] = await Promise.all([
      Promise.all(across.map((word) => get(`/api/v1/meetings?q=${word}`))),
      Promise.all(WORDS.map((word) => get(`/api/v1/meetings/${ids.get(word)}/search?q=${word}`))),
    ]);

    for (const [i, response] of lists.entries()) {
      const word = across[i]!;
      expect(response.statusCode).toBe(200);
      const page = MeetingListResponseSchema.parse(response.json());
      expect(page.items.map((m) => m.id)).toEqual([ids.get(word)]);
      expect(page.items[0]!.matches!.map((m) => m.snippet.filter((p) => p.match).map((p) => p.text))).toEqual([[word]]);
    }
    for (const [i, response] of insides.entries()) {
      expect(response.statusCode).toBe(200);
      const matches = MeetingSearchResponseSchema.parse(response.json()).matches;
      expect(matches.map((m) => [m.startMs, m.snippet.map((p) => p.text).join('')])).toEqual([[1000, `We spoke about the ${WORDS[i]} at length.`]]);
    }
  });
});
