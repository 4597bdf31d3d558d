import type { AskResponse } from '#shared/contracts/ask.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeChatService } from '#tests/support/fake-openai-chat.ts';
import { startFakeEmbeddingsService } from '#tests/support/fake-openai-embeddings.ts';
import { isHeldOutMeeting, loadQmsumMeetings, longQmsumTranscript, QMSUM_STARTED_AT, type QmsumMeeting, type TurnSpan } from '#tests/support/qmsum.ts';
import { median, type Row } from './lib/report.ts';

/**
 * Ask's retrieval on QMSum's product meetings (../shared/data/meetings/qmsum-product-val): the 20
 * meetings stored for one person, each of their 125 specific questions asked, the cited segments
 * read back as the dataset's turns. Two figures per setting:
 * - hit@5: the share of questions with at least one of their answer turns among the first 5 citations;
 * - recall@5: per question, the answer turns among the first 5 citations over min(5, answer turns),
 *   averaged (a question whose answer spans 60 turns can hold at most 5 of them).
 * Asked of the one meeting the question is about, then of all 20 (four meetings of each team talk
 * about the same remote control: the harder setting); p50 and p95 are each question's whole answer,
 * as the service gives it. Three configurations:
 * - local: no model; the citations are the retrieval's best moments, so the figures are its own;
 * - local + notes: the same after the local notes engine wrote each meeting's notes (topics, key
 *   points, decisions, summary), which Ask's index weighs, as a person's meetings would have them;
 * - + embeddings: a real ASK_EMBEDDINGS_URL (and _MODEL, _KEY) when set, else the local fake
 *   (tests/support/fake-openai-embeddings.ts: a hashed bag of words, which knows no meaning, so its
 *   figures say what the fusion costs, not what a real model gains);
 * - + embeddings + LLM: the embeddings as above and a real NOTES_LLM_URL (and _MODEL, _KEY) when set, else the local fake chat server,
 *   whose answer cites the lines sharing the most words with the question among those it was given:
 *   the citations are then the model's, from the passages retrieval gave it;
 * - + LLM, and + LLM with ASK_LLM_REWRITE and ASK_LLM_RERANK: the model's answer without embeddings,
 *   then with its rewrite of the question and its re-rank of the 12 best passages.
 * Each row also counts the answers that said nothing matches: of the 125 (each a miss), and of 40
 * questions no meeting answers (OFF_TOPIC), where that is the right answer.
 * SQLite by default; PARLEY_TEST_DB=postgres with TEST_DATABASE_URL measures PostgreSQL.
 *
 * Retrieval is tuned on the ES2006, ES2009 and IS1006 meetings' questions; TS3009 and TS3010 (45
 * questions) are held out, and each row gives their hit@5 apart. QMSUM_MEETINGS_DIR measures
 * another folder of QMSum meetings instead (tests/support/qmsum.ts), all of them held out.
 */
type Question = { meeting: string; query: string; spans: readonly TurnSpan[] };

/**
 * Questions none of these meetings answers (written for this bench, not taken from any meeting):
 * Ask should say nothing matches rather than cite the nearest noise. The first twenty set the
 * coverage bars (ask.service.ts); the second twenty were written after and are held out.
 */
const OFF_TOPIC = {
  tune: [
    'Who will book the flights for the Berlin conference?',
    'What did the team decide about the office parking spaces?',
    'When is the quarterly tax filing due?',
    'What was said about the hiring freeze?',
    'Who is responsible for migrating the database servers to the cloud?',
    'What did they agree about the holiday party venue?',
    'Why did the lawyer object to the merger agreement?',
    'What is the new vacation policy for contractors?',
    'How many patients were admitted to the clinic last month?',
    'What did the group discuss about the marathon training schedule?',
    'Who will renew the insurance contract for the warehouse?',
    'What did the manager say about the sales commission structure?',
    'What are the security vulnerabilities in the login page?',
    'Why was the shipment to Singapore delayed?',
    'What did they decide about the kitchen renovation?',
    'Summarize the discussion about the election campaign.',
    'What did the teacher think about the exam results?',
    'Who will translate the website into Japanese?',
    'What did the group conclude about the mortgage interest rates?',
    'How did the chef describe the new menu?',
  ],
  heldOut: [
    'What did the board say about the dividend payout?',
    'Who is going to fix the leaking roof in the lobby?',
    'What was decided about the podcast episode schedule?',
    'Why did the nurses complain about the night shifts?',
    'Summarize the discussion about the football tournament.',
    'What did the architect propose for the bridge foundations?',
    'When will the vaccine trial results be published?',
    'Who will organise the charity auction?',
    'What did the editor think about the novel manuscript?',
    'How much will the wedding photographer charge?',
    'What did the farmers say about the drought and the harvest?',
    'Why did the airline cancel the route to Lisbon?',
    'What did the group discuss about the kubernetes cluster upgrade?',
    'Who will write the grant application for the museum?',
    'What did the coach decide about the swimming team?',
    'What was said about the parliament vote on pensions?',
    'Who approved the invoice from the plumbing contractor?',
    'What did the students think of the chemistry lab?',
    'How did the landlord respond to the rent increase complaint?',
    'What did they plan for the spring garden festival?',
  ],
};

/** A share as the rows print it, or "none" of no questions. */
const share = (count: number, of: number): string => (of === 0 ? 'none' : `${((count / of) * 100).toFixed(1)} %`);
const inSpans = (turn: number, spans: readonly TurnSpan[]) => spans.some(([first, last]) => first <= turn && turn <= last);
const turnsIn = (spans: readonly TurnSpan[]) => new Set(spans.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, i) => first + i))).size;

async function store(t: TestApp, userId: string, meetings: QmsumMeeting[], withNotes: boolean) {
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
    if (withNotes) await t.deps.services.notes.regenerate(userId, created.id);
  }
  await t.deps.jobs.idle();
  return { turnOf, idOf };
}

async function measure(t: TestApp, userId: string, questions: Question[], stored: Awaited<ReturnType<typeof store>>, scoped: boolean) {
  let hits = 0;
  let recall = 0;
  let nothing = 0;
  const held = { n: 0, hits: 0 };
  const times: number[] = [];
  for (const q of questions) {
    const started = performance.now();
    const answer: AskResponse = await t.deps.services.ask.ask(userId, { question: q.query, ...(scoped ? { meetingId: stored.idOf.get(q.meeting)! } : {}) });
    times.push(performance.now() - started);
    if (answer.citations.length === 0) nothing++;
    const meetingId = stored.idOf.get(q.meeting);
    const turns = answer.citations
      .slice(0, 5)
      .filter((c) => c.meetingId === meetingId)
      .map((c) => stored.turnOf.get(c.segmentId)!)
      .filter((turn) => inSpans(turn, q.spans));
    if (turns.length > 0) hits++;
    if (isHeldOutMeeting(q.meeting)) {
      held.n++;
      if (turns.length > 0) held.hits++;
    }
    recall += new Set(turns).size / Math.min(5, turnsIn(q.spans));
  }
  const n = questions.length;
  const sorted = [...times].sort((a, b) => a - b);
  // Each off-topic question asked of one of the meetings in turn, or of all of them.
  const meetingIds = [...stored.idOf.values()];
  const offTopic = async (asked: readonly string[]) => {
    let said = 0;
    for (const [i, question] of asked.entries()) {
      const answer = await t.deps.services.ask.ask(userId, { question, ...(scoped ? { meetingId: meetingIds[i % meetingIds.length]! } : {}) });
      if (answer.citations.length === 0) said++;
    }
    return said;
  };
  return {
    nothing,
    offTopicTune: await offTopic(OFF_TOPIC.tune),
    offTopicHeldOut: await offTopic(OFF_TOPIC.heldOut),
    hit: hits / n,
    heldOutHit: share(held.hits, held.n),
    tunedHit: share(hits - held.hits, n - held.n),
    recall: recall / n,
    medianMs: median(times),
    p95Ms: sorted[Math.min(n - 1, Math.ceil(n * 0.95) - 1)]!,
  };
}

type Setting = { label: string; env: Record<string, string>; note: string; notes?: boolean };

/**
 * The latency goal's setting: 20 one-hour meetings (each the QMSum meetings one after another, cut at
 * an hour), every question asked across all of them with the local engine; only times are measured
 * (the answers are not these meetings' turns).
 */
async function hourLongLatency(questions: Question[]): Promise<Row> {
  const t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', ASK_QUESTIONS_PER_MINUTE: '100000', NOTES_ENGINE: 'local' } });
  try {
    const user = await signUpUser(t.app, 'bench-ask-hours');
    await t.deps.services.meetings.removeSamples(user.userId);
    const hour = longQmsumTranscript(60);
    for (let i = 0; i < 20; i++) {
      const speakers = hour.speakers;
      await t.deps.services.meetings.createSample(user.userId, {
        title: `${hour.title} #${i + 1}`,
        startedAt: QMSUM_STARTED_AT,
        durationSeconds: 3600,
        participants: [],
        summary: '',
        transcript: {
          speakers: speakers.map((s) => ({ label: s.label, displayName: s.name })),
          segments: hour.segments.map((s) => ({ speaker: speakers.findIndex((p) => p.id === s.speakerId), startMs: s.startMs, endMs: s.endMs, text: s.text })),
        },
      });
    }
    const times: number[] = [];
    for (const q of questions) {
      const started = performance.now();
      await t.deps.services.ask.ask(user.userId, { question: q.query });
      times.push(performance.now() - started);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      name: 'local, 20 one-hour meetings, asked of all',
      value: `p50 ${median(times).toFixed(1)} ms, p95 ${sorted[Math.ceil(sorted.length * 0.95) - 1]!.toFixed(1)} ms, first question ${times[0]!.toFixed(0)} ms (reads and indexes them), ${questions.length} questions`,
      note: `${t.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${hour.segments.length} segments each; latency only`,
    };
  } finally {
    await t.close();
  }
}

export async function benchAsk(): Promise<Row[]> {
  const meetings = loadQmsumMeetings();
  const questions: Question[] = meetings.flatMap((m) => m.specificQueries.map((q) => ({ meeting: m.name, query: q.query, spans: q.spans })));
  const fakeEmbeddings = process.env.ASK_EMBEDDINGS_URL && process.env.ASK_EMBEDDINGS_MODEL ? undefined : await startFakeEmbeddingsService({ apiKey: 'bench' });
  const fakeChat = process.env.NOTES_LLM_URL && process.env.NOTES_LLM_MODEL ? undefined : await startFakeChatService({ apiKey: 'bench' });
  const embeddingsEnv: Record<string, string> = fakeEmbeddings
    ? { ASK_EMBEDDINGS_URL: fakeEmbeddings.url, ASK_EMBEDDINGS_MODEL: 'fake-embed', ASK_EMBEDDINGS_KEY: 'bench' }
    : {
        ASK_EMBEDDINGS_URL: process.env.ASK_EMBEDDINGS_URL!,
        ASK_EMBEDDINGS_MODEL: process.env.ASK_EMBEDDINGS_MODEL!,
        ...(process.env.ASK_EMBEDDINGS_KEY ? { ASK_EMBEDDINGS_KEY: process.env.ASK_EMBEDDINGS_KEY } : {}),
      };
  const llmEnv: Record<string, string> = fakeChat
    ? { NOTES_ENGINE: 'llm', NOTES_LLM_URL: fakeChat.url, NOTES_LLM_MODEL: 'fake-notes-model', NOTES_LLM_KEY: 'bench' }
    : {
        NOTES_ENGINE: 'llm',
        NOTES_LLM_URL: process.env.NOTES_LLM_URL!,
        NOTES_LLM_MODEL: process.env.NOTES_LLM_MODEL!,
        ...(process.env.NOTES_LLM_KEY ? { NOTES_LLM_KEY: process.env.NOTES_LLM_KEY } : {}),
      };
  const settings: Setting[] = [
    { label: 'local', env: { NOTES_ENGINE: 'local' }, note: 'no model' },
    { label: 'local + notes', env: { NOTES_ENGINE: 'local' }, note: "no model; the local engine's notes written first", notes: true },
    {
      label: '+ embeddings',
      env: { NOTES_ENGINE: 'local', ...embeddingsEnv, ASK_EMBEDDINGS_TIMEOUT_SECONDS: '120' },
      note: fakeEmbeddings ? 'FAKE embeddings (hashed bag of words), RRF k=60' : `embeddings ${process.env.ASK_EMBEDDINGS_MODEL}, RRF k=60`,
    },
    {
      label: '+ embeddings + LLM',
      env: { ...embeddingsEnv, ASK_EMBEDDINGS_TIMEOUT_SECONDS: '120', ...llmEnv },
      note: `${fakeEmbeddings ? 'FAKE embeddings' : `embeddings ${process.env.ASK_EMBEDDINGS_MODEL}`}; ${fakeChat ? 'FAKE chat model: cites the given lines sharing most words with the question' : `LLM ${process.env.NOTES_LLM_MODEL}`}`,
    },
    {
      label: '+ LLM',
      env: { ...llmEnv },
      note: fakeChat ? 'no embeddings; FAKE chat model (as above)' : `no embeddings; LLM ${process.env.NOTES_LLM_MODEL}`,
    },
    {
      label: '+ LLM, rewrite + re-rank',
      env: { ...llmEnv, ASK_LLM_REWRITE: 'true', ASK_LLM_RERANK: 'true' },
      note: fakeChat
        ? "no embeddings; FAKE chat model: its rewrite is the question's own words, its re-rank orders passages by words shared with the question"
        : `no embeddings; LLM ${process.env.NOTES_LLM_MODEL} rewrites the question and re-ranks the 12 best passages`,
    },
  ];
  const rows: Row[] = [];
  try {
    for (const setting of settings) {
      const t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false', ASK_QUESTIONS_PER_MINUTE: '100000', ...setting.env } });
      try {
        const user = await signUpUser(t.app, 'bench-ask');
        await t.deps.services.meetings.removeSamples(user.userId);
        const stored = await store(t, user.userId, meetings, setting.notes === true);
        for (const scoped of [true, false]) {
          const result = await measure(t, user.userId, questions, stored, scoped);
          const engine = t.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
          rows.push({
            name: `${setting.label}, ${scoped ? 'asked of its meeting' : `asked of all ${meetings.length} meetings`}`,
            value:
              `hit@5 ${(result.hit * 100).toFixed(1)} % (tuned ${result.tunedHit}, held-out ${result.heldOutHit}), recall@5 ${(result.recall * 100).toFixed(1)} % of ${questions.length} questions, p50 ${result.medianMs.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms; ` +
              `"nothing matches" for ${result.nothing} of them (goal 0), for ${result.offTopicTune} of ${OFF_TOPIC.tune.length} off-topic questions (held out: ${result.offTopicHeldOut} of ${OFF_TOPIC.heldOut.length}; goal all)`,
            note: `${engine}; ${setting.note}`,
          });
        }
      } finally {
        await t.close();
      }
    }
    rows.push(await hourLongLatency(questions));
  } finally {
    await fakeEmbeddings?.close();
    await fakeChat?.close();
  }
  return rows;
}
