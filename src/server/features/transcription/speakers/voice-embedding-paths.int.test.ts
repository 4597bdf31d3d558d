import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installDiarizationTestModels } from '#tests/support/diarization-test-models.ts';
import { fliteMeeting, type FliteMeeting } from '#tests/support/flite-meeting.ts';
import { createSpeakerIdentifier, type SpeakerIdentifier, type SpeakerIdentifierOptions } from './identify-speakers.ts';

/**
 * The two ways voices are described for voice profiles, each in its host process: the built-in
 * features (the clustering host) and sherpa-onnx's speaker-embedding model, here the stand-in
 * model of tests/support/diarization-test-models.ts (a mean log-mel spectrum, 80 numbers), since
 * the real models cannot be downloaded here. How well the real ones tell voices apart is not shown.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-voice-paths-'));
const identifiers: SpeakerIdentifier[] = [];
afterEach(async () => {
  await Promise.all(identifiers.splice(0).map((i) => i.close()));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let meeting: FliteMeeting;
beforeAll(() => {
  meeting = fliteMeeting();
});
function identifier(options: SpeakerIdentifierOptions): SpeakerIdentifier {
  const created = createSpeakerIdentifier(options);
  identifiers.push(created);
  return created;
}
/** Each flite voice's turns, and a stretch too short to describe (one second). */
const speakers = () => [
  ...['kal16', 'slt', 'awb'].map((voice) => meeting.turns.filter((t) => t.speaker === voice)),
  [{ startMs: meeting.turns[0]!.startMs, endMs: meeting.turns[0]!.startMs + 1000 }],
];

describe('voice embeddings for voice profiles', () => {
  it('without a speaker embedding model: the built-in features, 24 numbers per voice, and why not the model', { timeout: 60_000 }, async () => {
    const voices = identifier({ modelsDir: path.join(work, 'none') });
    expect(await voices.voicePath()).toEqual({
      kind: 'built-in',
      key: 'built-in:2',
      reason: 'sherpa-onnx speaker embedding: no speaker embedding model installed — run "npm run models -- fetch 3dspeaker-eres2net-base"',
    });
    const described = await voices.embedVoices(meeting.pcm, speakers());
    expect(described.path.kind).toBe('built-in');
    expect(described.voices.map((v) => v?.length ?? null)).toEqual([24, 24, 24, null]);
  });

  it('with the model installed: its embeddings, described in its own process, one per voice', { timeout: 60_000 }, async () => {
    const dir = path.join(work, 'models');
    installDiarizationTestModels(dir);
    const voices = identifier({ modelsDir: dir });
    expect(await voices.voicePath()).toEqual({ kind: 'sherpa-onnx', model: 'test-embedding', key: 'sherpa-onnx:test-embedding' });
    const described = await voices.embedVoices(meeting.pcm, speakers());
    expect(described.voices.map((v) => v?.length ?? null)).toEqual([80, 80, 80, null]);
    // Three voices, three descriptions.
    const [a, b, c] = described.voices.map((v) => Array.from(v ?? []).join(','));
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('with speakers set to clustering: the built-in features, whatever is installed', async () => {
    const dir = path.join(work, 'models-clustering');
    installDiarizationTestModels(dir);
    const voices = identifier({ modelsDir: dir, method: 'clustering' });
    expect(await voices.voicePath()).toEqual({
      kind: 'built-in',
      key: 'built-in:2',
      reason: 'speakers are set to clustering (TRANSCRIBE_SPEAKERS=clustering)',
    });
  });
});
