import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MeetingListResponseSchema,
  MeetingSearchResponseSchema,
  type MeetingListResponse,
  type SearchMatch,
  type SearchMatchKind,
} from '#shared/contracts/meetings.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import type { SampleInput } from './meetings.service.ts';

/**
 * Search across meetings and inside one (issue 14), on SQLite and PostgreSQL: which meetings match,
 * in which order, and why (highlighted passages with their speaker and moment); speakers and notes
 * are searchable; another person's meetings never match. Words no sample meeting holds (quokka,
 * zeppelin, narwhal…) keep each account's six samples out of the way.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

type Account = { token: string; userId: string };
const newAccount = async (): Promise<Account> => {
  const user = await signUpUser(t.app, 'search');
  return { token: user.token, userId: user.userId };
};

const get = async (token: string, url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, body: response.json() as unknown };
};
const search = async (token: string, query: string): Promise<MeetingListResponse> => {
  const { status, body } = await get(token, `/api/v1/meetings?${query}`);
  expect(status).toBe(200);
  return MeetingListResponseSchema.parse(body);
};
const titles = (page: MeetingListResponse) => page.items.map((m) => m.title);
const marked = (match: SearchMatch) => match.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase());
const plain = (match: SearchMatch) => match.snippet.map((p) => p.text).join('');

const PRIYA = 'Priya Raman';
const TOMAS = 'Tomás Ortega';

/** A meeting whose speakers are the people who say its lines. */
const meeting = (title: string, startedAt: string, lines: [speaker: string, startMs: number, text: string][], summary = ''): SampleInput => {
  const speakers = [...new Set(lines.map(([speaker]) => speaker))];
  return {
    title,
    startedAt,
    durationSeconds: 600,
    participants: [],
    summary,
    transcript: {
      speakers: speakers.map((displayName, i) => ({ label: `Speaker ${i + 1}`, displayName })),
      segments: lines.map(([speaker, startMs, text]) => ({ speaker: speakers.indexOf(speaker), startMs, endMs: startMs + 4000, text })),
    },
  };
};

describe('search across meetings', () => {
  let a: Account;
  let b: Account;
  const ids: Record<string, string> = {};
  const segments: Record<string, string[]> = {};
  beforeAll(async () => {
    a = await newAccount();
    b = await newAccount();
    const create = async (owner: Account, input: SampleInput) => {
      const created = await t.deps.services.meetings.createSample(owner.userId, input);
      ids[input.title] = created.id;
      segments[input.title] = created.segmentIds;
      return created;
    };
    await create(
      a,
      meeting(
        'Vendor review',
        '2026-03-10T09:00:00.000Z',
        [
          [PRIYA, 1000, 'Let us go through the quokka invoices from the vendor first.'],
          [TOMAS, 65_000, 'The zeppelin launch slipped by a week.'],
          [PRIYA, 130_000, 'Nothing else on the agenda today.'],
        ],
        'A look at spending with the marmoset vendor.',
      ),
    );
    await create(a, meeting('Quokka offsite', '2026-01-05T09:00:00.000Z', [[TOMAS, 3000, 'Where do we hold the offsite this year?']]));
    await create(a, meeting('Hiring sync', '2025-06-01T09:00:00.000Z', [[PRIYA, 42_000, 'A quokka could do this job, honestly.']]));
    const notes = await create(a, meeting('Legal catch-up', '2026-02-01T09:00:00.000Z', [[PRIYA, 7000, 'Someone must send the contract over to legal.']]));
    await t.deps.services.notes.storeSampleNotes(
      notes.id,
      [
        {
          kind: 'action_item',
          text: 'Send the narwhal contract to legal',
          segmentIds: [notes.segmentIds[0]!],
          startMs: 7000,
          assignee: 'Priya Raman',
          suggested: false,
        },
        { kind: 'decision', text: 'Adopt the axolotl pricing plan', segmentIds: [notes.segmentIds[0]!], startMs: 7000, suggested: false },
      ],
      notes.transcriptRevision,
    );
    await create(b, meeting('Other person quokka', '2026-03-11T09:00:00.000Z', [[TOMAS, 1000, 'The quokka plan belongs to someone else.']]));
  });

  it('finds every meeting holding the word, newest first, and only the caller’s', async () => {
    const page = await search(a.token, 'q=quokka');
    expect(titles(page)).toEqual(['Vendor review', 'Quokka offsite', 'Hiring sync']);
    expect(page.total).toBe(3);
    expect(page.totalIsAtLeast).toBeUndefined();
    expect(titles(await search(b.token, 'q=quokka'))).toEqual(['Other person quokka']);
  });

  it('ranks by relevance when asked: a title hit first', async () => {
    const page = await search(a.token, 'q=quokka&sort=relevance');
    expect(titles(page)[0]).toBe('Quokka offsite');
    expect(new Set(titles(page))).toEqual(new Set(['Vendor review', 'Quokka offsite', 'Hiring sync']));
  });

  it('shows why a meeting matched: the passage with the word marked, its speaker and moment', async () => {
    const vendor = (await search(a.token, 'q=quokka')).items.find((m) => m.title === 'Vendor review')!;
    expect(vendor.matches).toHaveLength(1);
    const [hit] = vendor.matches!;
    expect(hit).toMatchObject({ kind: 'transcript', speaker: 'Priya Raman', startMs: 1000, segmentId: segments['Vendor review']![0] });
    expect(marked(hit!)).toEqual(['quokka']);
    expect(plain(hit!)).toBe('Let us go through the quokka invoices from the vendor first.');
  });

  it('reads the last word as a prefix, and marks the whole word it matched', async () => {
    const page = await search(a.token, 'q=zeppe');
    expect(titles(page)).toEqual(['Vendor review']);
    expect(page.items[0]!.matches![0]).toMatchObject({ speaker: 'Tomás Ortega', startMs: 65_000 });
    expect(marked(page.items[0]!.matches![0]!)).toEqual(['zeppelin']);
  });

  it('needs every word in the meeting, not in one line, and shows a passage for each', async () => {
    const page = await search(a.token, `q=${encodeURIComponent('quokka zeppelin')}`);
    expect(titles(page)).toEqual(['Vendor review']);
    const words = page.items[0]!.matches!.flatMap(marked);
    expect(words).toContain('quokka');
    expect(words).toContain('zeppelin');
    expect(titles(await search(a.token, `q=${encodeURIComponent('quokka giraffe')}`))).toEqual([]);
  });

  it('keeps to the date range', async () => {
    expect(titles(await search(a.token, 'q=quokka&from=2026-01-01&to=2026-02-28'))).toEqual(['Quokka offsite']);
    expect(titles(await search(a.token, 'q=quokka&from=2026-01-05&to=2026-03-10'))).toEqual(['Vendor review', 'Quokka offsite']);
    expect(titles(await search(a.token, 'q=quokka&to=2025-12-31'))).toEqual(['Hiring sync']);
  });

  it('finds meetings by a speaker’s name, with what that person said; a renamed speaker by the new name only', async () => {
    const page = await search(a.token, 'q=ortega');
    expect(titles(page)).toEqual(['Vendor review', 'Quokka offsite']);
    expect(page.items[0]!.matches!.every((m) => m.speaker === 'Tomás Ortega')).toBe(true);

    const detail = (await get(a.token, `/api/v1/meetings/${ids['Quokka offsite']}`)).body as { speakers: { id: string; displayName: string }[] };
    const tomas = detail.speakers.find((s) => s.displayName === 'Tomás Ortega')!;
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${ids['Quokka offsite']}/speakers/${tomas.id}`,
      headers: { authorization: `Bearer ${a.token}` },
      payload: { displayName: 'Wilhelmina Zorn' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(titles(await search(a.token, 'q=ortega'))).toEqual(['Vendor review']);
    const zorn = await search(a.token, 'q=zorn');
    expect(titles(zorn)).toEqual(['Quokka offsite']);
    expect(zorn.items[0]!.matches![0]).toMatchObject({ speaker: 'Wilhelmina Zorn', startMs: 3000 });
  });

  it('finds the notes: summary, action items (with whom they are for) and decisions, at their moment', async () => {
    const summary = await search(a.token, 'q=marmoset');
    expect(titles(summary)).toEqual(['Vendor review']);
    expect(summary.items[0]!.matches![0]).toMatchObject({ kind: 'summary' satisfies SearchMatchKind, startMs: null, segmentId: null });
    expect(marked(summary.items[0]!.matches![0]!)).toEqual(['marmoset']);

    const action = await search(a.token, 'q=narwhal');
    expect(titles(action)).toEqual(['Legal catch-up']);
    expect(action.items[0]!.matches![0]).toMatchObject({ kind: 'action_item', speaker: 'Priya Raman', startMs: 7000 });
    expect(plain(action.items[0]!.matches![0]!)).toBe('Send the narwhal contract to legal');

    const decision = await search(a.token, 'q=axolotl');
    expect(decision.items[0]!.matches![0]).toMatchObject({ kind: 'decision', startMs: 7000 });
  });

  it('follows edits: a corrected line, an edited action item and a deleted meeting', async () => {
    const vendor = ids['Vendor review']!;
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${vendor}/segments/${segments['Vendor review']![2]}`,
      headers: { authorization: `Bearer ${a.token}` },
      payload: { text: 'One more thing: the pangolin budget.' },
    });
    expect(edit.statusCode).toBe(200);
    expect(titles(await search(a.token, 'q=pangolin'))).toEqual(['Vendor review']);
    expect(titles(await search(a.token, 'q=agenda'))).toEqual([]);

    const legal = (await get(a.token, `/api/v1/meetings/${ids['Legal catch-up']}`)).body as { insights: { id: string; kind: string }[] };
    const item = legal.insights.find((i) => i.kind === 'action_item')!;
    const itemEdit = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${ids['Legal catch-up']}/notes/items/${item.id}`,
      headers: { authorization: `Bearer ${a.token}` },
      payload: { text: 'Send the walrus contract to legal' },
    });
    expect(itemEdit.statusCode).toBe(200);
    expect(titles(await search(a.token, 'q=narwhal'))).toEqual([]);
    expect(titles(await search(a.token, 'q=walrus'))).toEqual(['Legal catch-up']);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/meetings/${ids['Hiring sync']}`, headers: { authorization: `Bearer ${a.token}` } });
    expect(removed.statusCode).toBe(200);
    expect(titles(await search(a.token, 'q=quokka'))).not.toContain('Hiring sync');
  });

  it('searches inside one meeting: its matching passages in transcript order; another person’s meeting is not found', async () => {
    const { status, body } = await get(a.token, `/api/v1/meetings/${ids['Vendor review']}/search?q=${encodeURIComponent('quokka zeppelin')}`);
    expect(status).toBe(200);
    const { matches } = MeetingSearchResponseSchema.parse(body);
    expect(matches.map((m) => m.startMs)).toEqual([1000, 65_000]);
    expect(matches.map(marked)).toEqual([['quokka'], ['zeppelin']]);

    expect((await get(b.token, `/api/v1/meetings/${ids['Vendor review']}/search?q=quokka`)).status).toBe(404);
    expect((await get(a.token, `/api/v1/meetings/${ids['Other person quokka']}/search?q=quokka`)).status).toBe(404);
    expect((await get(a.token, `/api/v1/meetings/${ids['Vendor review']}/search?q=`)).status).toBe(400);
    const nothing = await get(a.token, `/api/v1/meetings/${ids['Vendor review']}/search?q=${encodeURIComponent('"*')}`);
    expect(nothing).toEqual({ status: 200, body: { matches: [] } });
  });
});

describe('a word in more meetings than the count goes to', () => {
  /** One more than SEARCH_COUNT_LIMIT + 1, so the count stops and the newest-first and ranked paths past it are taken. */
  const MEETINGS = 1002;
  const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString();
  let c: Account;
  beforeAll(async () => {
    c = await newAccount();
    for (let n = 0; n < MEETINGS; n++) {
      // The title hit (which weighs most) is among the newest thousand, far from the page's start.
      const title = n === 600 ? 'Wombat review' : `Standup ${n}`;
      await t.deps.services.meetings.createSample(c.userId, meeting(title, day(n), [[PRIYA, 1000, 'The wombat report is in.']]));
    }
  }, 600_000);

  it('counts 1,000 and more, pages newest first, each with its passage', async () => {
    const first = await search(c.token, 'q=wombat&pageSize=5');
    expect(first.total).toBe(1000);
    expect(first.totalIsAtLeast).toBe(true);
    expect(titles(first)).toEqual(['Standup 1001', 'Standup 1000', 'Standup 999', 'Standup 998', 'Standup 997']);
    expect(first.items.every((m) => m.matches?.length === 1 && marked(m.matches[0]!).includes('wombat'))).toBe(true);
    expect(titles(await search(c.token, 'q=wombat&pageSize=5&page=2'))).toEqual(['Standup 996', 'Standup 995', 'Standup 994', 'Standup 993', 'Standup 992']);
  });

  it('ranks best match first when asked: the title hit leads', async () => {
    const page = await search(c.token, 'q=wombat&sort=relevance&pageSize=5');
    expect(titles(page)[0]).toBe('Wombat review');
    expect(page.items).toHaveLength(5);
    expect(page.totalIsAtLeast).toBe(true);
  });
});
