import type { AskResponse } from '#shared/contracts/ask.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { loadQmsumMeetings, QMSUM_STARTED_AT, type QmsumMeeting, type TurnSpan } from '#tests/support/qmsum.ts';
import { median, type Row } from './lib/report.ts';

/**
 * Ask's retrieval on QMSum's product meetings (../shared/data/meetings/qmsum-product-val): the 20
 * meetings stored for one person, each of their 125 specific questions asked, the cited segments
 * read back as the dataset's turns. Two figures per setting:
 * - hit@5: the share of questions with at least one of their answer turns among the first 5 citations;
 * - recall@5: per question, the answer turns among the first 5 citations over min(5, answer turns),
 *   averaged (a question whose answer spans 60 turns can hold at most 5 of them).
 * Asked of the one meeting the question is about, then of all 20 (four meetings of each team talk
 * about the same remote control: the harder setting). Without a model (the citations are the
 * retrieval's best moments), so the figures are the retrieval's; with embeddings only when a real
 * ASK_EMBEDDINGS_URL (and _MODEL, _KEY) is in the environment: a fake's vectors would mean nothing.
 * SQLite by default; PARLEY_TEST_DB=postgres with TEST_DATABASE_URL measures PostgreSQL's ranking.
 */
type Question = { meeting: string; query: string; spans: readonly TurnSpan[] };

const inSpans = (turn: number, spans: readonly TurnSpan[]) => spans.some(([first, last]) => first <= turn && turn <= last);
const turnsIn = (spans: readonly TurnSpan[]) => new Set(spans.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i))).size;

async function store(t: TestApp, userId: string, meetings: QmsumMeeting[]) {
  const turnOf = new Map<string, number>();
  const idOf = new Map<string, string>();
  for (const m of meetings) {
    const speakers = m.transcript.speakers;
    const created = await t.deps.services.meetings.createSample(userId, {
      title: m.name,
      startedAt: QMSUM_STARTED_AT,
      durationSeconds: Math.ceil((m.transcript.segments.at(-1)?.endMs ?? 0) / 1000),
      participants: [],
      summary: '',
      transcript: {
        speakers: speakers.map((s) => ({ label: s.label, displayName: s.name })),
        segments: m.transcript.segments.map((s) => ({
          speaker: speakers.findIndex((p) => p.id === s.speakerId),
          startMs: s.startMs,
          endMs: s.endMs,
          text: s.text,
        })),
      },
    });
    idOf.set(m.name, created.id);
    created.segmentIds.forEach((id, i) => turnOf.set(id, Number(/-(\d+)$/.exec(m.transcript.segments[i]!.id)![1])));
    await t.deps.services.ask.transcriptReady(created.id);
  }
  await t.deps.jobs.idle();
  return { turnOf, idOf };
}

async function measure(t: TestApp, userId: string, questions: Question[], stored: Awaited<ReturnType<typeof store>>, scoped: boolean) {
  let hits = 0;
  let recall = 0;
  const times: number[] = [];
  for (const q of questions) {
    const started = performance.now();
    const answer: AskResponse = await t.deps.services.ask.ask(userId, { question: q.query, ...(scoped ? { meetingId: stored.idOf.get(q.meeting)! } : {}) });
    times.push(performance.now() - started);
    const meetingId = stored.idOf.get(q.meeting);
    const turns = answer.citations
      .slice(0, 5)
      .filter((c) => c.meetingId === meetingId)
      .map((c) => stored.turnOf.get(c.segmentId)!)
      .filter((turn) => inSpans(turn, q.spans));
    if (turns.length > 0) hits++;
    recall += new Set(turns).size / Math.min(5, turnsIn(q.spans));
  }
  const n = questions.length;
  return { hit: hits / n, recall: recall / n, medianMs: median(times) };
}

export async function benchAsk(): Promise<Row[]> {
  const meetings = loadQmsumMeetings();
  const questions: Question[] = meetings.flatMap((m) => m.specificQueries.map((q) => ({ meeting: m.name, query: q.query, spans: q.spans })));
  const real = process.env.ASK_EMBEDDINGS_URL && process.env.ASK_EMBEDDINGS_MODEL;
  const settings: { label: string; env: Record<string, string> }[] = [{ label: 'search index', env: {} }];
  if (real) {
    settings.push({
      label: `search index + embeddings (${process.env.ASK_EMBEDDINGS_MODEL}, RRF k=60)`,
      env: {
        ASK_EMBEDDINGS_URL: process.env.ASK_EMBEDDINGS_URL!,
        ASK_EMBEDDINGS_MODEL: process.env.ASK_EMBEDDINGS_MODEL!,
        ...(process.env.ASK_EMBEDDINGS_KEY ? { ASK_EMBEDDINGS_KEY: process.env.ASK_EMBEDDINGS_KEY } : {}),
        ASK_EMBEDDINGS_TIMEOUT_SECONDS: '120',
      },
    });
  }
  const rows: Row[] = [];
  for (const setting of settings) {
    // No LLM: the citations are the retrieval's own ranking, which is what is measured.
    const t = await buildTestApp({
      env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', NOTES_ENGINE: 'local', ASK_QUESTIONS_PER_MINUTE: '100000', ...setting.env },
    });
    try {
      const user = await signUpUser(t.app, 'bench-ask');
      await t.deps.services.meetings.removeSamples(user.userId);
      const stored = await store(t, user.userId, meetings);
      for (const scoped of [true, false]) {
        const result = await measure(t, user.userId, questions, stored, scoped);
        rows.push({
          name: `${setting.label}, ${scoped ? 'asked of its meeting' : 'asked of all 20 meetings'}`,
          value: `recall@5 ${(result.recall * 100).toFixed(1)} %, hit@5 ${(result.hit * 100).toFixed(1)} % of ${questions.length} questions, ${result.medianMs.toFixed(1)} ms median`,
          note: t.database.dialect === 'postgres' ? 'PostgreSQL: ts_rank × idf' : 'SQLite: FTS5 bm25',
        });
      }
    } finally {
      await t.close();
    }
  }
  if (!real) rows.push({ name: 'search index + embeddings', value: 'not measured', note: 'set ASK_EMBEDDINGS_URL and ASK_EMBEDDINGS_MODEL to a real server' });
  return rows;
}
