import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { embeddingModel, installDiarizationTestModels } from '#tests/support/diarization-test-models.ts';
import { FLITE_LINES, fliteMeeting, type FliteMeeting } from '#tests/support/flite-meeting.ts';
import type { RecognizedSegment } from '../engines/engine.ts';
import { locateSileroVad } from '../models/silero-vad.ts';
import { PermanentJobError } from '../pipeline.ts';
import { diarizationErrorRate } from './diarization-error-rate.ts';
import { createSpeakerIdentifier, type SpeakerIdentifier, type SpeakerIdentifierOptions } from './identify-speakers.ts';
import { createSherpaDiarizer } from './sherpa-diarization.ts';

/**
 * sherpa-onnx speaker diarization, wired for real: the real sherpa-onnx-node addon in its own
 * process, running stand-in models made by the test (tests/support/diarization-test-models.ts:
 * the inputs, outputs and metadata of pyannote segmentation and a WeSpeaker embedding, with an
 * energy detector and a mean spectrum inside), because the real models cannot be downloaded here.
 * What this cannot show is how well the real models tell voices apart (see the README's figures).
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-diarization-test-'));
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

function modelsDir(name: string, files?: Parameters<typeof installDiarizationTestModels>[1]): string {
  const dir = path.join(work, name);
  installDiarizationTestModels(dir, files);
  return dir;
}

const mostCommon = (values: number[]) => [...new Set(values)].sort((a, b) => values.filter((v) => v === b).length - values.filter((v) => v === a).length)[0];
const lineWords = (turn: number) => FLITE_LINES[turn]![1].split(' ');

/** What an engine would hear: each line's words spread over its turn, lines 2 and 3 in one segment. */
function recognised(): RecognizedSegment[] {
  const words = meeting.turns.map((turn, i) => {
    const texts = lineWords(i);
    const step = (turn.endMs - turn.startMs) / texts.length;
    return texts.map((text, w) => ({ text, startMs: Math.round(turn.startMs + w * step), endMs: Math.round(turn.startMs + (w + 1) * step), confidence: 0.9 }));
  });
  const segment = (ws: RecognizedSegment['words']) => ({
    startMs: ws[0]!.startMs,
    endMs: ws.at(-1)!.endMs,
    text: ws.map((w) => w.text).join(' '),
    words: ws,
    confidence: 0.9,
  });
  return [segment(words[0]!), segment([...words[1]!, ...words[2]!]), ...words.slice(3).map(segment)];
}

describe('sherpa-onnx speaker diarization', () => {
  it('without its models is not used, says what to fetch, and clustering still tells the speakers apart', async () => {
    const dir = path.join(work, 'none');
    const speakers = identifier({ modelsDir: dir });
    const status = await speakers.status();
    expect(status.method).toBe('clustering');
    expect(status.reasons).toContain(
      'sherpa-onnx diarization: no speaker segmentation or speaker embedding model installed — run "npm run models -- fetch pyannote-segmentation-3.0" and "npm run models -- fetch 3dspeaker-eres2net-base"',
    );
    const result = await speakers.identify(meeting.pcm, recognised());
    expect(result.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3']);
  });

  it(
    'with its models installed, diarizes in its own process and attributes the words: three speakers in order of appearance',
    { timeout: 30_000 },
    async () => {
      const dir = modelsDir('installed');
      const diarizer = createSherpaDiarizer({ modelsDir: dir });
      try {
        expect(await diarizer.checkAvailability()).toEqual({ available: true });
        const turns = await diarizer.diarize(meeting.pcm);
        expect(new Set(turns.map((t) => t.speaker)).size).toBe(3);
        expect(diarizationErrorRate(meeting.turns, turns).der).toBeLessThan(0.1); // measured 3.8 %
      } finally {
        await diarizer.close();
      }

      const speakers = identifier({ modelsDir: dir });
      expect(await speakers.status()).toMatchObject({ method: 'sherpa-onnx', reasons: [] });
      const result = await speakers.identify(meeting.pcm, recognised());
      expect(result.speakers.map((s) => s.label)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 3']);
      // Most words of each line go to its voice (a model may disagree at the very edges of a turn).
      const speakerOfWord = new Map(result.segments.flatMap((s) => s.words.map((w) => [w.startMs, s.speaker] as const)));
      const majority = recognised()
        .flatMap((s) => s.words)
        .reduce<number[][]>((lines, word) => {
          const line = meeting.turns.findIndex((t) => word.startMs >= t.startMs && word.startMs < t.endMs);
          (lines[line] ??= []).push(speakerOfWord.get(word.startMs)!);
          return lines;
        }, [])
        .map((speakers) => mostCommon(speakers));
      expect(majority).toEqual([0, 1, 2, 0, 1, 2]);
      // The segment that held lines 2 and 3 is split where the voice changes.
      const secondLineEnd = recognised()[1]!.words[lineWords(1).length - 1]!.endMs;
      expect(result.segments.some((s) => s.endMs === secondLineEnd)).toBe(true);
    },
  );

  it(
    'a model sherpa cannot load (valid ONNX of the wrong kind ends its process) leaves the server running: auto falls back to clustering, sherpa-onnx chosen outright fails with the reason',
    { timeout: 30_000 },
    async () => {
      const dir = modelsDir('wrong-kind', { segmentation: fs.readFileSync(locateSileroVad().modelPath) });
      const fallbacks: string[] = [];
      const auto = identifier({ modelsDir: dir, onFallback: (reason) => fallbacks.push(reason) });
      const status = await auto.status();
      expect(status.method).toBe('clustering');
      expect(status.reasons[0]).toMatch(/^sherpa-onnx diarization: models test-segmentation and test-embedding could not be loaded: .+/);
      expect((await auto.identify(meeting.pcm, recognised())).speakers).toHaveLength(3);

      // Chosen outright, the meeting fails at once (no retries) with the reason.
      const chosen = identifier({ modelsDir: dir, method: 'sherpa-onnx' });
      const failure = await chosen.identify(meeting.pcm, recognised()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PermanentJobError);
      expect((failure as Error).message).toMatch(
        /^Speakers could not be told apart: sherpa-onnx diarization: models test-segmentation and test-embedding could not be loaded: /,
      );
      expect(fallbacks).toEqual([]); // auto checked first and never tried it
    },
  );

  it(
    'models that load but fail on the audio (an embedding model of the wrong kind) fall back to clustering for this meeting and are set aside for the next',
    { timeout: 30_000 },
    async () => {
      const dir = modelsDir('fails-on-audio', { embedding: fs.readFileSync(locateSileroVad().modelPath) });
      const fallbacks: string[] = [];
      const speakers = identifier({ modelsDir: dir, onFallback: (reason) => fallbacks.push(reason) });
      expect((await speakers.status()).method).toBe('sherpa-onnx');
      const result = await speakers.identify(meeting.pcm, recognised());
      expect(result.speakers).toHaveLength(3);
      expect(fallbacks).toEqual(['the diarization process stopped: Unknown model type for speaker embedding extractor!']);
      const status = await speakers.status();
      expect(status.method).toBe('clustering');
      expect(status.reasons[0]).toBe(
        'sherpa-onnx diarization: models test-segmentation and test-embedding failed on a recording: the diarization process stopped: Unknown model type for speaker embedding extractor!',
      );
    },
  );

  it('a model damaged since it was installed says to fetch it again', async () => {
    const dir = modelsDir('damaged');
    fs.truncateSync(path.join(dir, 'test-embedding', 'embedding.onnx'), 100);
    const status = await identifier({ modelsDir: dir }).status();
    expect(status.reasons[0]).toBe(
      `sherpa-onnx diarization: model test-embedding is damaged (embedding.onnx has 100 bytes, ${embeddingModel().byteLength} were installed) — run "npm run models -- remove test-embedding" and fetch it again`,
    );
  });

  it('a cancelled identification stops at once, and the next one starts a fresh process', { timeout: 30_000 }, async () => {
    const speakers = identifier({ modelsDir: modelsDir('cancel'), method: 'sherpa-onnx' });
    await speakers.status(); // loaded
    const controller = new AbortController();
    const long = Buffer.concat(Array.from({ length: 20 }, () => meeting.pcm)); // 8 minutes
    const pending = speakers.identify(long, recognised(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(5_000); // eight minutes of audio take far longer
    expect((await speakers.identify(meeting.pcm, recognised())).speakers).toHaveLength(3);
  });
});
