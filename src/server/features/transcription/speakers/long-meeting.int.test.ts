import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchEventLoop } from '#tests/support/event-loop-watch.ts';
import { longFliteMeeting, type FliteMeeting } from '#tests/support/flite-meeting.ts';
import type { RecognizedSegment } from '../engines/engine.ts';
import { diarizationErrorRate } from './diarization-error-rate.ts';
import { createSpeakerIdentifier, type SpeakerIdentifier } from './identify-speakers.ts';

/**
 * Clustering as the server runs it (in its host process) on minutes of talk: three of flite's
 * voices, two of them men, taking 30-odd turns over three minutes. On a recording this long,
 * choosing the number of speakers by silhouette alone found two (the men as one voice).
 */
let meeting: FliteMeeting;
let speakers: SpeakerIdentifier;
/** One segment per spoken turn, as a recogniser without word times would give: each goes to the speaker heard most over it. */
let turnsAsSegments: RecognizedSegment[];
/** How long the whole identification took, to tell a cancelled run from one that went on to the end. */
let wholeRunMs = 0;

beforeAll(() => {
  meeting = longFliteMeeting({ minutes: 3 });
  turnsAsSegments = meeting.turns.map((turn, i) => ({ startMs: turn.startMs, endMs: turn.endMs, text: `turn ${i + 1}`, words: [], confidence: 1 }));
  speakers = createSpeakerIdentifier({ method: 'clustering' });
}, 60_000);
afterAll(() => speakers.close());

describe('speaker identification on a three-minute meeting', () => {
  it('reports how it hears speech', async () => {
    expect(await speakers.status()).toEqual({
      method: 'clustering',
      voiceActivity: 'silero',
      reasons: ['sherpa-onnx diarization: not chosen (TRANSCRIBE_SPEAKERS=clustering)'],
    });
  });

  it('finds the three voices and gives every turn to its voice, while the event loop stays free', { timeout: 60_000 }, async () => {
    const loop = watchEventLoop();
    const started = performance.now();
    const identified = await speakers.identify(meeting.pcm, turnsAsSegments);
    wholeRunMs = performance.now() - started;
    const longestGap = loop.stop();

    expect(identified.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3']);
    const hypothesis = identified.segments.map((s) => ({ startMs: s.startMs, endMs: s.endMs, speaker: String(s.speaker) }));
    const der = diarizationErrorRate(meeting.turns, hypothesis);
    expect(der.der).toBeLessThan(0.05); // measured 0 %: each whole turn is one segment here
    // Clustering on this thread would show as one gap about as long as the whole run; only copying
    // the audio to the host remains here. The figure itself (goal: under 100 ms) is `npm run bench`'s.
    expect(longestGap).toBeLessThan(wholeRunMs / 3);
  });

  it('finds the same three voices heard a decoding window at a time and clustered once over all windows', { timeout: 60_000 }, async () => {
    // As decodePcmWindows hands a recording over, in small windows: 60 s each, with the next 10 s
    // heard early, so turns are cut at every window's edge; no window holds all three voices' talk.
    const session = (await speakers.windowed())!;
    const [windowMs, overlapMs] = [60_000, 10_000];
    const bytesOf = (ms: number) => (ms / 1000) * 16_000 * 2;
    for (let startMs = 0; bytesOf(startMs) < meeting.pcm.length; startMs += windowMs) {
      const pcm = meeting.pcm.subarray(bytesOf(startMs), bytesOf(startMs + windowMs + overlapMs));
      const last = pcm.length < bytesOf(windowMs + overlapMs);
      await session.hear({ startMs, pcm, ownMs: last ? Infinity : windowMs });
      if (last) break;
    }
    const identified = await session.identify(turnsAsSegments);
    expect(identified.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3']);
    const hypothesis = identified.segments.map((s) => ({ startMs: s.startMs, endMs: s.endMs, speaker: String(s.speaker) }));
    expect(diarizationErrorRate(meeting.turns, hypothesis).der).toBeLessThan(0.05); // as heard whole, above
  });

  it('stops at once when the job is cancelled, and the next identification starts afresh', { timeout: 60_000 }, async () => {
    const abort = new AbortController();
    const started = performance.now();
    const cancelled = speakers.identify(meeting.pcm, turnsAsSegments, { signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    await expect(cancelled).rejects.toThrow('Speaker identification was cancelled.');
    expect(performance.now() - started).toBeLessThan(wholeRunMs);
    const again = await speakers.identify(
      meeting.pcm.subarray(0, 32_000 * 40),
      turnsAsSegments.filter((t) => t.endMs < 40_000),
    );
    expect(again.speakers.length).toBeGreaterThanOrEqual(2);
  });
});
