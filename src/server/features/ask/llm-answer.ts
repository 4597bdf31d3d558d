import type { SegmentInContext } from './meeting-index.ts';
import { checkCitedItem, indexTranscript, type ChatClient, type NotesTranscript } from '../notes/notes.service.ts';

/**
 * Ask's answer from the notes' LLM: the passages go in as numbered lines, the model writes a few
 * sentences each ending with the references of the lines that hold it, and every sentence is held to
 * the notes' rule (citations.ts: the references exist and the sentence's content words are in what
 * they cite). Sentences that fail are dropped, as the notes drop uncheckable items.
 */
export const ASK_SYSTEM_PROMPT = `You answer questions about meetings, using only the transcript lines given.
Write a short answer: at most 4 sentences, each on its own line.
End every sentence with the references of the lines that say it, in square brackets, e.g. [S2] or [S2, S5].
Keep to the speakers' own words where you can. Never add what the lines do not say.
If the lines do not answer the question, write only: NO ANSWER`;

/** One line the model may cite: a segment shown to it. */
export type PromptLine = { ref: string; segmentId: string; meetingId: string; startMs: number; speaker: string | null; text: string };

/**
 * The passages as the model reads them: meetings as headings, each passage's segments (the hit with
 * its neighbours) as numbered lines, each segment once however many passages share it.
 */
export function promptLines(passages: SegmentInContext[]): { prompt: string; lines: PromptLine[] } {
  const lines: PromptLine[] = [];
  const byId = new Map<string, PromptLine>();
  const blocks: string[] = [];
  const meetingOrder: string[] = [];
  const perMeeting = new Map<string, string[]>();
  for (const passage of passages) {
    if (!perMeeting.has(passage.meetingId)) {
      perMeeting.set(passage.meetingId, []);
      meetingOrder.push(passage.meetingId);
    }
    const text: string[] = [];
    for (const segment of [...passage.before, passage, ...passage.after]) {
      if (byId.has(segment.segmentId)) continue;
      const line: PromptLine = {
        ref: `S${lines.length + 1}`,
        segmentId: segment.segmentId,
        meetingId: passage.meetingId,
        startMs: segment.startMs,
        speaker: segment.speaker,
        text: segment.text,
      };
      lines.push(line);
      byId.set(segment.segmentId, line);
      text.push(`[${line.ref}] ${(line.speaker ?? 'Someone').replaceAll(':', ' ')}: ${line.text.replace(/\s+/g, ' ')}`);
    }
    if (text.length > 0) perMeeting.get(passage.meetingId)!.push(text.join('\n'));
  }
  for (const meetingId of meetingOrder) {
    const title = passages.find((p) => p.meetingId === meetingId)?.meetingTitle || 'Untitled meeting';
    blocks.push(`Meeting "${title}":\n${perMeeting.get(meetingId)!.join('\n…\n')}`);
  }
  return { prompt: blocks.join('\n\n'), lines };
}

const REFS = /\[\s*(S\d+(?:\s*[,;]\s*S\d+)*)\s*\]/gi;

/** The model's lines as sentences with the references they end with (a line without any cites nothing). */
export function parseAnswer(content: string): { text: string; refs: string[] }[] {
  if (/^\s*NO ANSWER\s*\.?\s*$/i.test(content)) return [];
  const sentences: { text: string; refs: string[] }[] = [];
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim();
    if (line === '' || /^NO ANSWER\b/i.test(line)) continue;
    const refs = [...line.matchAll(REFS)].flatMap((m) => m[1]!.split(/[,;]/).map((r) => r.trim().toUpperCase()));
    const text = line
      .replace(REFS, '')
      .replace(/\s+([.,;:!?])/g, '$1')
      .replace(/\s{2,}/g, ' ')
      .trim();
    if (text !== '') sentences.push({ text, refs: [...new Set(refs)] });
  }
  return sentences;
}

export type CheckedSentence = { text: string; segmentIds: string[] };

/** Keeps the sentences whose references are lines shown and whose words those lines hold; counts the rest. */
export function checkSentences(sentences: { text: string; refs: string[] }[], lines: PromptLine[]): { kept: CheckedSentence[]; dropped: number } {
  const byRef = new Map(lines.map((l) => [l.ref, l]));
  const speakers = [...new Set(lines.map((l) => l.speaker ?? ''))];
  const transcript: NotesTranscript = {
    title: '',
    startedAt: new Date(0).toISOString(),
    timeZone: 'UTC',
    speakers: speakers.map((name, i) => ({ id: `p${i}`, label: name, name: null })),
    segments: lines.map((l) => ({ id: l.segmentId, speakerId: `p${speakers.indexOf(l.speaker ?? '')}`, startMs: l.startMs, endMs: l.startMs, text: l.text })),
  };
  const index = indexTranscript(transcript);
  const kept: CheckedSentence[] = [];
  let dropped = 0;
  for (const sentence of sentences) {
    // An unknown reference fails the check just as the notes' do: nothing the model was not shown.
    const segmentIds = sentence.refs.map((ref) => byRef.get(ref)?.segmentId ?? `unknown:${ref}`);
    const verdict = checkCitedItem({ text: sentence.text, segmentIds }, index);
    if (verdict.ok) kept.push({ text: sentence.text, segmentIds: verdict.segmentIds });
    else dropped++;
  }
  return { kept, dropped };
}

/**
 * Asks the model and checks its answer a line at a time as it streams: each sentence whose citations
 * hold goes to `onSentence` as soon as its line is complete, so nothing unchecked is ever shown.
 * Answers the kept sentences and how many were dropped (errors are the chat client's LlmCallError).
 */
export async function askModel(
  chat: ChatClient,
  question: string,
  prompt: string,
  lines: PromptLine[],
  signal: AbortSignal,
  onSentence: (sentence: CheckedSentence) => void,
): Promise<{ kept: CheckedSentence[]; dropped: number }> {
  const kept: CheckedSentence[] = [];
  let dropped = 0;
  let pending = '';
  const take = (line: string) => {
    const checked = checkSentences(parseAnswer(line), lines);
    dropped += checked.dropped;
    for (const sentence of checked.kept) {
      kept.push(sentence);
      onSentence(sentence);
    }
  };
  await chat.stream(
    {
      messages: [
        { role: 'system', content: ASK_SYSTEM_PROMPT },
        { role: 'user', content: `Question: ${question}\n\nTranscript lines:\n${prompt}` },
      ],
      responseFormat: undefined,
      maxTokens: 400,
    },
    signal,
    (text) => {
      pending += text;
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        take(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
    },
  );
  if (pending.trim() !== '') take(pending);
  return { kept, dropped };
}

export const ASK_REWRITE_PROMPT = `You rewrite a question about meetings as search words for their transcripts.
Write one line: the question's subject words, the names it uses, and the words people would say in a meeting about it (synonyms, related terms).
No sentence, no explanation, at most 20 words.`;

/** The question as search words by the model, at most 20 of them; '' when it gives none. */
export async function rewriteQuestion(chat: ChatClient, question: string, signal: AbortSignal): Promise<string> {
  const answer = await chat.complete(
    {
      messages: [
        { role: 'system', content: ASK_REWRITE_PROMPT },
        { role: 'user', content: `Question: ${question}` },
      ],
      responseFormat: undefined,
      maxTokens: 80,
    },
    signal,
  );
  const line = answer.content.split('\n').find((l) => /[\p{L}\p{N}]/u.test(l)) ?? '';
  return (line.match(/[\p{L}\p{N}'’-]+/gu) ?? []).slice(0, 20).join(' ');
}

export const ASK_RERANK_PROMPT = `You rank passages of meeting transcripts by how well they answer a question.
Answer with the references of the passages that help, best first, separated by commas, e.g. P3, P1, P7.
Leave out passages that do not help. If none helps, write only: NONE`;

/**
 * The passages reordered by the model: those it names, in its order, then the others as they were
 * (a passage it left out is not dropped: its judgement is a ranking, not a filter). References it
 * invents are ignored.
 */
export async function rerankPassages(chat: ChatClient, question: string, passages: SegmentInContext[], signal: AbortSignal): Promise<string[]> {
  const blocks = passages.map((p, i) =>
    [
      `[P${i + 1}] (${p.meetingTitle || 'Untitled meeting'})`,
      ...[...p.before, p, ...p.after].map((s) => `${(s.speaker ?? 'Someone').replaceAll(':', ' ')}: ${s.text.replace(/\s+/g, ' ')}`),
    ].join('\n'),
  );
  const answer = await chat.complete(
    {
      messages: [
        { role: 'system', content: ASK_RERANK_PROMPT },
        { role: 'user', content: `Question: ${question}\n\n${blocks.join('\n\n')}` },
      ],
      responseFormat: undefined,
      maxTokens: 100,
    },
    signal,
  );
  const named: string[] = [];
  for (const match of answer.content.matchAll(/\bP(\d+)\b/g)) {
    const passage = passages[Number(match[1]) - 1];
    if (passage && !named.includes(passage.segmentId)) named.push(passage.segmentId);
  }
  return [...named, ...passages.map((p) => p.segmentId).filter((id) => !named.includes(id))];
}
