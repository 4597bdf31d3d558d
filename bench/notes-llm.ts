import { checkCitedItem, CITATION_MIN_SHARE, indexTranscript } from '#server/features/notes/citations.ts';
import { createLlmNotesEngine } from '#server/features/notes/engines/llm/llm-notes-engine.ts';
import { startFakeChatService } from '#tests/support/fake-openai-chat.ts';
import { CITATION_CASES, CITATION_MEETING } from '#tests/support/notes-citation-cases.ts';
import { syntheticMeeting } from '#tests/support/notes-transcripts.ts';
import { createStandInLocalEngine } from '#tests/support/stand-in-local-notes-engine.ts';
import { median, type Row } from './lib/report.ts';

/**
 * The LLM notes engine's own cost: a one-hour synthetic meeting run against the fake chat server
 * on loopback, the engine's wall time less the time the fake spent answering (its "model" time).
 * What is left is ours: token counting and chunking, prompts, the HTTP client, parsing and
 * validating answers, the reduce, owners, dates and the citation check. The first run of the
 * process also loads the tokenizer and is shown apart. Plus how the citation threshold does on the
 * labelled cases it was chosen on.
 */
const RUNS = 5;

async function overheadRows(): Promise<Row[]> {
  const fake = await startFakeChatService({ apiKey: 'sk-bench' });
  const meeting = syntheticMeeting(60);
  const words = meeting.segments.reduce((sum, s) => sum + s.text.split(/\s+/).length, 0);
  const rows: Row[] = [];
  try {
    for (const contextTokens of [8192, 4096]) {
      const engine = createLlmNotesEngine({
        url: fake.url,
        apiKey: 'sk-bench',
        model: 'fake-notes-model',
        contextTokens,
        timeoutMs: 30_000,
        local: createStandInLocalEngine().engine,
      });
      const overheads: number[] = [];
      let requests = 0;
      for (let i = 0; i <= RUNS; i++) {
        fake.reset();
        fake.configure({ contextTokens, delayMs: 20 });
        const started = performance.now();
        const result = await engine.generate(meeting, { signal: AbortSignal.timeout(60_000) });
        const overhead = performance.now() - started - fake.serviceMs();
        if (result.localFallbackParts > 0) throw new Error('the bench run fell back to the local engine');
        requests = fake.requests.length;
        if (i === 0 && contextTokens === 8192)
          rows.push({ name: 'first run in the process (loads the tokenizer)', value: `${overhead.toFixed(0)} ms overhead` });
        if (i > 0) overheads.push(overhead);
      }
      const each = median(overheads);
      rows.push({
        name: `one hour (${meeting.segments.length} segments, ${words} words), context ${contextTokens}`,
        value: `${each.toFixed(0)} ms overhead median of ${RUNS}, ${requests} requests (${(each / requests).toFixed(1)} ms each)`,
        note: 'fake answers after 20 ms; its time is subtracted',
      });
    }
  } finally {
    await fake.close();
  }
  return rows;
}

function citationRows(): Row[] {
  const index = indexTranscript(CITATION_MEETING);
  const scored = CITATION_CASES.map((c) => ({ kind: c.kind, share: checkCitedItem(c, index).share }));
  const at = (threshold: number) => {
    const faithful = scored.filter((s) => s.kind === 'faithful');
    const unfaithful = scored.filter((s) => s.kind === 'unfaithful');
    const kept = faithful.filter((s) => s.share >= threshold).length;
    const dropped = unfaithful.filter((s) => s.share < threshold).length;
    return `${kept}/${faithful.length} faithful kept, ${dropped}/${unfaithful.length} unfaithful dropped`;
  };
  return [
    { name: `citation check at share ≥ ${CITATION_MIN_SHARE} (labelled cases)`, value: at(CITATION_MIN_SHARE) },
    ...[0.3, 0.4, 0.6, 0.7].map((t) => ({ name: `  same cases at share ≥ ${t}`, value: at(t) })),
  ];
}

export async function benchNotesLlm(): Promise<Row[]> {
  return [...(await overheadRows()), ...citationRows()];
}
