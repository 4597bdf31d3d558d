import { beforeAll, describe, expect, it } from 'vitest';
import { fliteMeeting, type FliteMeeting } from '#tests/support/flite-meeting.ts';
import type { RecognizedSegment } from '../engines/engine.ts';
import { createPocketsphinxEngine } from '../engines/pocketsphinx.ts';
import type { SpeakerIdentification } from '../pipeline-types.ts';
import { wordErrorRate } from '../word-error-rate.ts';
import { diarizationErrorRate } from './diarization-error-rate.ts';
import { createSpeakerIdentifier } from './identify-speakers.ts';

/**
 * A three-voice meeting spoken by Debian's flite (kal16, slt, awb taking turns twice), recognised
 * by pocketsphinx and told apart by clustering, as the transcription job does on a mixed track.
 * Bounds measured here, with margin, that a broken recogniser or clustering would not meet.
 */
let meeting: FliteMeeting;
let recognised: RecognizedSegment[];
let identified: SpeakerIdentification;

beforeAll(async () => {
  meeting = fliteMeeting();
  recognised = await createPocketsphinxEngine().transcribe(meeting.pcm);
  const speakers = createSpeakerIdentifier({ method: 'clustering' });
  identified = await speakers.identify(meeting.pcm, recognised).finally(() => speakers.close());
}, 60_000);

/** The turns the transcript shows: each segment's time under its speaker's label. */
const hypothesisTurns = () => identified.segments.map((s) => ({ startMs: s.startMs, endMs: s.endMs, speaker: String(s.speaker) }));

describe('a three-voice flite meeting through pocketsphinx and speaker identification', () => {
  it('is transcribed within a word error rate of 40 %', () => {
    const wer = wordErrorRate(meeting.text, recognised.map((s) => s.text).join(' '));
    expect(wer).toBeLessThan(0.35); // measured 19.4 % (Debian's en-us model on flite's voices)
  });

  it('finds three speakers, labelled in order of appearance, taking their turns as spoken', () => {
    expect(identified.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3']);
    // Consecutive lines of one speaker would merge; here every turn changes voice.
    const turns = identified.segments.map((s) => s.speaker).filter((speaker, i, all) => i === 0 || all[i - 1] !== speaker);
    expect(turns).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('attributes the transcript to the right voices: diarization error rate under 10 %, under 5 % with a 0.25 s collar', () => {
    const plain = diarizationErrorRate(meeting.turns, hypothesisTurns());
    expect(plain.der).toBeLessThan(0.1); // measured 2.6 %: turn edges only, no confusion
    expect(plain.confusion).toBeLessThan(0.02 * plain.referenceMs);
    expect(diarizationErrorRate(meeting.turns, hypothesisTurns(), { collarSeconds: 0.25 }).der).toBeLessThan(0.05); // measured 0 %
  });
});
