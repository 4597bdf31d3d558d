import type { TranscriptionRunStage } from '#shared/contracts/job-progress.ts';
import type { RecordingOptions } from '#shared/contracts/meetings.ts';
import type { BlobStore } from '#server/lib/blob-store.ts';
import {
  AudioDecodeError,
  type Pcm16k,
  AudioTooLongError,
  decodePcmWindows,
  decodeToPcm16k,
  denoisePcm,
  maxDecodedMs,
  overlongReason,
  pcmDurationMs,
  probeDurationMs,
  undeclaredOverlongReason,
} from '#server/lib/ffmpeg.ts';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '#server/db/create-db.ts';
import { failedBestEffort } from '#server/lib/best-effort.ts';
import type { MeetingsService, TranscriptInput } from '../meetings/meetings.service.ts';
import type { RecognizedSegment, TranscriptionEngine } from './engines/engine.ts';
import { TranscriptionServiceError } from './engines/openai-compatible.ts';
import { postProcessSegments } from './post-process.ts';
import { correctSegments } from '#server/lib/vocabulary-corrections.ts';
import type {
  AttributedSegment,
  DescribedVoices,
  EmbedVoices,
  IdentifySpeakers,
  KnownVoices,
  NameKnownVoices,
  PipelineOptions,
  SpeakerIdentification,
  SpeakerWindows,
} from './pipeline-types.ts';
import type { VoiceTurn } from './speakers/voice-embedding-protocol.ts';
import { DEFAULT_STAGE_LIMITS, StageTimeoutError, withinLimit, type StageLimits } from './stage-limits.ts';

/** Reports where a run is, for the meeting page and history card (the web says the stage in words). */
export type ReportProgress = (stage: TranscriptionRunStage, progress: number | null) => void;

export type PipelineDeps = {
  meetings: MeetingsService;
  blobs: BlobStore;
  engine: TranscriptionEngine;
  identifySpeakers: IdentifySpeakers;
  /** Speaker identification a decoding window at a time, for a recording longer than one window. */
  speakerWindows: SpeakerWindows;
  /** The person's Recording settings (Settings › Recording), defaults when they saved none. */
  settingsOf: (ownerId: string) => Promise<Pick<PipelineOptions, 'identifySpeakers' | 'punctuation' | 'fillerWordRemoval'>>;
  /** The meeting's custom vocabulary (the vocabulary feature): none where the owner's plan leaves it out. */
  vocabularyOf?: (meeting: { ownerId: string; teamId: string | null }) => Promise<string[]>;
  /** MAX_RECORDING_HOURS: a longer recording fails before a byte of it is decoded. */
  maxRecordingHours: number;
  /** Each stage's time limit (DEFAULT_STAGE_LIMITS unless a test needs a short one). */
  stageLimits?: StageLimits;
  /** The speaker path's voice descriptions, for naming known voices. */
  voices: { embedVoices: EmbedVoices };
  /** Known voices named before the transcript is stored (the voice-profiles feature); none: speakers stay "Speaker N". */
  nameKnownVoices?: NameKnownVoices;
  log: Pick<Logger, 'warn'>;
};

/** A failure that retrying cannot fix: the meeting fails at once with this message. */
export class PermanentJobError extends Error {}

/**
 * One meeting's transcription: decode → recognise → identify speakers → post-process → name
 * known voices → store → ready. Safe to run again (a retry replaces what an earlier run stored).
 */
export async function transcribeMeeting(deps: PipelineDeps, meetingId: string, signal: AbortSignal, report: ReportProgress): Promise<{ segments: number }> {
  const meeting = await deps.meetings.transcriptionSource(meetingId);
  if (!meeting) throw new PermanentJobError('The meeting no longer exists.');
  if (!meeting.audioKey) throw new PermanentJobError('This meeting has no recording to transcribe.');
  const availability = await deps.engine.checkAvailability();
  if (!availability.available) throw new PermanentJobError(`No transcription engine is available: ${availability.reason}`);
  const options = await pipelineOptions(deps, meeting, meeting.options);
  // The listed participants, and the person recording, who may not list themselves.
  const maxSpeakers = meeting.participants > 0 ? meeting.participants + 1 : undefined;

  report('decoding', null);
  // On an object store, a local copy for as long as the transcription reads it (known voices are named from it too).
  const { transcript, recordQuestions } = await deps.blobs.withLocalFile(meeting.audioKey, async (audioPath) => {
    const identified = await identifySegments(deps, audioPath, { audioSources: meeting.audioSources, maxSpeakers }, options, signal, report);
    // Near-misses of the vocabulary corrected last, on the text as it will be stored (punctuated, fillers gone).
    const segments = correctSegments(postProcessSegments(identified.segments, options), options.vocabulary);
    // Only speakers who still have a line after post-processing, renumbered in order of appearance.
    const used = [...new Set(segments.map((s) => s.speaker))];
    const transcript: TranscriptInput = {
      speakers: used.map((_, i) => ({ label: `Speaker ${i + 1}`, displayName: sourceName(identified.speakers[used[i]!]?.label) })),
      segments: segments.map((s) => ({
        speaker: used.indexOf(s.speaker),
        startMs: s.startMs,
        endMs: s.endMs,
        text: s.text,
        confidence: s.confidence,
        corrections: s.corrections,
      })),
    };
    const recordQuestions = await nameKnownVoices(deps, { meetingId, ownerId: meeting.ownerId }, audioPath, transcript, signal, report);
    return { transcript, recordQuestions };
  });

  report('saving', null);
  await deps.meetings.completeTranscription(meetingId, transcript, recordQuestions);
  return { segments: transcript.segments.length };
}

/**
 * The speakers of a new transcript whose voice a voice profile knows, named before it is stored, so
 * the notes are written with the names (not renamed after them, which left them out of date); the
 * weaker matches become questions for the owner, stored with the transcript (the function
 * returned). Best effort: a failure, or matching past its stage's limit, leaves the speakers
 * unnamed and never fails the transcription.
 */
async function nameKnownVoices(
  deps: PipelineDeps,
  meeting: { meetingId: string; ownerId: string },
  audioPath: string,
  transcript: TranscriptInput,
  signal: AbortSignal,
  report: ReportProgress,
): Promise<((trx: Db, speakerIds: readonly string[]) => Promise<void>) | undefined> {
  const name = deps.nameKnownVoices;
  // A speaker named after its capture source ("Microphone") keeps that name.
  const unnamed = transcript.speakers.flatMap((speaker, i) => (speaker.displayName ? [] : [i]));
  if (!name || unnamed.length === 0) return undefined;
  const turns = unnamed.map((): VoiceTurn[] => []);
  let audioMs = 0;
  for (const segment of transcript.segments) {
    audioMs = Math.max(audioMs, segment.endMs);
    const k = segment.speaker === null ? -1 : unnamed.indexOf(segment.speaker);
    if (k >= 0) turns[k]!.push({ startMs: segment.startMs, endMs: segment.endMs });
  }
  const limits = deps.stageLimits ?? DEFAULT_STAGE_LIMITS;
  let known: KnownVoices | undefined;
  try {
    known = await withinLimit('identifying speakers', limits['identifying speakers'], audioMs, signal, (s) =>
      name(meeting, async () => {
        report('identifying speakers', null);
        return describeVoices(deps.voices.embedVoices, audioPath, turns, s);
      }),
    );
  } catch (error) {
    // A cancelled job stays cancelled; anything else is the matching's failure, not the transcription's.
    signal.throwIfAborted();
    failedBestEffort('voice-naming', error, deps.log, { meetingId: meeting.meetingId });
    return undefined;
  }
  if (!known) return undefined;
  const { names, record } = known;
  unnamed.forEach((index, k) => {
    const person = names[k];
    if (person) transcript.speakers[index]!.displayName = person;
  });
  return (trx, speakerIds) =>
    record(
      trx,
      unnamed.map((index) => speakerIds[index]!),
    );
}

/**
 * Speakers' voices described from the recording at `audioPath` as speaker identification hears it:
 * as it is, not denoised (the denoiser reshapes the spectrum each voice is known by).
 */
export async function describeVoices(
  embed: EmbedVoices,
  audioPath: string,
  speakers: ReadonlyArray<readonly VoiceTurn[]>,
  signal?: AbortSignal,
): Promise<DescribedVoices> {
  const pcm = await decodeToPcm16k(audioPath, { signal });
  return embed(pcm, speakers, signal ? { signal } : {});
}

/** Decode → recognise → identify speakers, on the recording at `audioPath`. */
async function identifySegments(
  deps: PipelineDeps,
  audioPath: string,
  meeting: { audioSources: string[]; /** The listed participants and the person recording, when listed. */ maxSpeakers: number | undefined },
  options: PipelineOptions,
  signal: AbortSignal,
  report: ReportProgress,
): Promise<SpeakerIdentification> {
  const declaredMs = await refuseOverlong(audioPath, deps.maxRecordingHours);
  signal.throwIfAborted();
  const limits = deps.stageLimits ?? DEFAULT_STAGE_LIMITS;
  // A container that does not say how long it is (a browser's WebM) gets the decode time of the longest allowed.
  const decodeBudgetMs = declaredMs ?? deps.maxRecordingHours * HOUR_MS;
  const sources = meeting.audioSources;
  const { maxSpeakers } = meeting;
  let identified: SpeakerIdentification;
  // One mixed track to tell speakers apart on: a window at a time, unless the method needs it whole.
  const speakers = sources.length <= 1 && options.identifySpeakers ? await deps.speakerWindows() : undefined;
  if (sources.length > 1 && options.identifySpeakers) {
    identified = await transcribeSources(deps, audioPath, sources, options, { signal, limits, decodeBudgetMs }, report);
  } else if (!options.identifySpeakers) {
    const recognised = await transcribeInWindows(deps, audioPath, options, { signal, limits, decodeBudgetMs, declaredMs }, report);
    identified = { speakers: [{ label: 'Speaker 1' }], segments: recognised.map((s) => ({ ...s, speaker: 0 })) };
  } else if (speakers) {
    // Each window's speech described as it is recognised (then let go), speakers found once over all of them.
    const session = speakers;
    const recognised = await transcribeInWindows(deps, audioPath, options, { signal, limits, decodeBudgetMs, declaredMs, hear: session.hear }, report);
    identified = { speakers: [{ label: 'Speaker 1' }], segments: recognised.map((s) => ({ ...s, speaker: 0 })) };
    if (recognised.length > 0) {
      report('identifying speakers', null);
      const audioMs = declaredMs ?? recognised.at(-1)!.endMs;
      identified = await withinLimit('identifying speakers', limits['identifying speakers'], audioMs, signal, (s) =>
        session.identify(recognised, { signal: s, maxSpeakers }),
      );
    }
  } else {
    // The method chosen needs the whole track at once (TRANSCRIBE_SPEAKERS=sherpa-onnx): held whole.
    const pcm = await withinLimit('decoding', limits.decoding, decodeBudgetMs, signal, (s) =>
      decodeToPcm16k(audioPath, { denoise: options.noiseReduction, signal: s }),
    );
    const audioMs = pcmDurationMs(pcm);

    report('transcribing', 0);
    const recognised = (
      await withinLimit('transcribing', limits.transcribing, audioMs, signal, (s) =>
        deps.engine.transcribe(pcm, { signal: s, onProgress: (f) => report('transcribing', f), vocabulary: options.vocabulary }),
      )
    ).filter((s) => s.text.trim() !== '');

    identified = { speakers: [{ label: 'Speaker 1' }], segments: recognised.map((s) => ({ ...s, speaker: 0 })) };
    if (options.identifySpeakers && recognised.length > 0) {
      report('identifying speakers', null);
      identified = await withinLimit('identifying speakers', limits['identifying speakers'], audioMs, signal, (s) =>
        deps.identifySpeakers(pcm, recognised, { signal: s, maxSpeakers }),
      );
    }
  }
  return identified;
}

/** Ten minutes of PCM (19 MB) at a time: the most a transcription without speakers holds, whatever the recording's length. */
export const WINDOW_MS = 10 * 60_000;
/** Each window also hears the next 30 s, so an utterance begun before its edge is recognised whole (few run longer). */
export const WINDOW_OVERLAP_MS = 30_000;

/**
 * One track: decoded and recognised a window at a time. A window keeps the segments that start in
 * its own ten minutes and after what the window before kept; those that start in its overlap are
 * the next window's, which hears them from their start. With `hear`, speaker identification hears
 * each window too (its own ten minutes, the overlap as what follows them).
 */
async function transcribeInWindows(
  deps: PipelineDeps,
  audioPath: string,
  options: PipelineOptions,
  run: {
    signal: AbortSignal;
    limits: StageLimits;
    decodeBudgetMs: number;
    declaredMs: number | null;
    hear?: (window: { startMs: number; pcm: Pcm16k; ownMs: number }, options: { signal: AbortSignal }) => Promise<void>;
  },
  report: ReportProgress,
): Promise<RecognizedSegment[]> {
  // Decoding, recognition (and hearing speakers) interleave here: one limit, their stages' budgets.
  const stages = [run.limits.decoding, run.limits.transcribing, ...(run.hear ? [run.limits['identifying speakers']] : [])];
  const limit = { floorMs: sum(stages.map((l) => l.floorMs)), perAudioSecondMs: sum(stages.map((l) => l.perAudioSecondMs)) };
  const maxMs = maxDecodedMs(deps.maxRecordingHours);
  report('transcribing', 0);
  return withinLimit('transcribing', limit, run.decodeBudgetMs, run.signal, async (signal) => {
    const kept: RecognizedSegment[] = [];
    let keptUntil = 0;
    try {
      // Speakers are told apart on the recording as it is: the denoiser, as it adapts, reshapes the
      // spectrum each voice is known by, and split one reader into two speakers (bench
      // speakers-recording). With speakers to hear, the recogniser's copy is denoised apart.
      const denoiseApart = options.noiseReduction && run.hear !== undefined;
      // One buffer for every window's denoised copy (the engine is done with it before the next).
      let denoised: Buffer | undefined;
      for await (const { startMs, pcm } of decodePcmWindows(audioPath, {
        denoise: options.noiseReduction && !denoiseApart,
        signal,
        windowMs: WINDOW_MS,
        overlapMs: WINDOW_OVERLAP_MS,
        maxMs,
      })) {
        const windowMs = pcmDurationMs(pcm);
        // A window shorter than a full one is the last: everything in it is its own.
        const edge = windowMs >= WINDOW_MS + WINDOW_OVERLAP_MS ? startMs + WINDOW_MS : Infinity;
        const onProgress = (f: number) => report('transcribing', run.declaredMs ? Math.min(1, (startMs + f * windowMs) / run.declaredMs) : null);
        const heardBefore = keptUntil;
        // Each window's recognition and hearing keep their own stages' limits, measured on the window
        // (the limit around the whole loop holds them all, with the decoding, to the sum of the budgets).
        const part = { part: startMs > 0 || edge !== Infinity };
        const recognised = await withinLimit(
          'transcribing',
          run.limits.transcribing,
          windowMs,
          signal,
          async (s) => {
            if (!denoiseApart) return deps.engine.transcribe(pcm, { signal: s, onProgress, vocabulary: options.vocabulary });
            if (!denoised || denoised.length < pcm.length) denoised = Buffer.allocUnsafe(pcm.length);
            return deps.engine.transcribe(await denoisePcm(pcm, { signal: s, into: denoised }), { signal: s, onProgress, vocabulary: options.vocabulary });
          },
          part,
        );
        for (const segment of recognised) {
          const shifted = shiftSegment(segment, startMs);
          if (shifted.text.trim() === '' || shifted.startMs < heardBefore || shifted.startMs >= edge) continue;
          kept.push(shifted);
          keptUntil = Math.max(keptUntil, shifted.endMs);
        }
        // A last window's every frame is its own.
        const hear = run.hear;
        if (hear) {
          await withinLimit(
            'identifying speakers',
            run.limits['identifying speakers'],
            windowMs,
            signal,
            (s) => hear({ startMs, pcm, ownMs: edge === Infinity ? Infinity : WINDOW_MS }, { signal: s }),
            part,
          );
        }
      }
    } catch (error) {
      // A container that did not say its length, found longer than the cap while decoding.
      if (error instanceof AudioTooLongError) throw new PermanentJobError(undeclaredOverlongReason(deps.maxRecordingHours));
      throw error;
    }
    return kept;
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const shiftSegment = (segment: RecognizedSegment, byMs: number): RecognizedSegment => ({
  ...segment,
  startMs: segment.startMs + byMs,
  endMs: segment.endMs + byMs,
  words: segment.words.map((w) => ({ ...w, startMs: w.startMs + byMs, endMs: w.endMs + byMs })),
});

/**
 * A recording with one channel per capture source (microphone, shared tab): each channel is its
 * own speaker track, recognised on its own and merged by time; no clustering is needed.
 */
async function transcribeSources(
  deps: PipelineDeps,
  audioPath: string,
  sources: string[],
  options: PipelineOptions,
  run: { signal: AbortSignal; limits: StageLimits; decodeBudgetMs: number },
  report: ReportProgress,
): Promise<SpeakerIdentification> {
  const { signal, limits } = run;
  // Every track is the whole meeting's length: the stage's budget is for all of them.
  const tracks = await withinLimit('decoding', limits.decoding, run.decodeBudgetMs * sources.length, signal, (s) =>
    Promise.all(sources.map((_, channel) => decodeToPcm16k(audioPath, { channel, denoise: options.noiseReduction, signal: s }))),
  );
  const audioMs = tracks.reduce((sum, pcm) => sum + pcmDurationMs(pcm), 0);
  const segments: AttributedSegment[] = [];
  await withinLimit('transcribing', limits.transcribing, audioMs, signal, async (s) => {
    for (const [index, pcm] of tracks.entries()) {
      report('transcribing', index / tracks.length);
      const recognised = await deps.engine.transcribe(pcm, {
        signal: s,
        onProgress: (f) => report('transcribing', (index + f) / tracks.length),
        vocabulary: options.vocabulary,
      });
      for (const segment of recognised) if (segment.text.trim() !== '') segments.push({ ...segment, speaker: index });
      s.throwIfAborted();
    }
  });
  segments.sort((a, b) => a.startMs - b.startMs);
  return { speakers: sources.map((label) => ({ label })), segments };
}

/**
 * The cap on a recording's length, asked of its container before decoding: a 2 MB Opus file of
 * silence can declare hours, and every hour is about 115 MB of PCM and minutes of recognition.
 */
async function refuseOverlong(audioPath: string, maxHours: number): Promise<number | null> {
  const durationMs = await probeDurationMs(audioPath);
  const refused = durationMs === null ? null : overlongReason(durationMs, maxHours);
  if (refused) throw new PermanentJobError(refused);
  return durationMs;
}

const HOUR_MS = 3_600_000;

/** A speaker labelled by capture source ("Microphone") keeps that as a name people can change. */
const sourceName = (label: string | undefined) => (label && !/^Speaker \d+$/.test(label) ? label : null);

async function pipelineOptions(
  deps: PipelineDeps,
  meeting: { ownerId: string; teamId: string | null },
  meetingOptions: RecordingOptions,
): Promise<PipelineOptions> {
  const [settings, vocabulary] = await Promise.all([deps.settingsOf(meeting.ownerId), deps.vocabularyOf ? deps.vocabularyOf(meeting) : []]);
  return {
    identifySpeakers: settings.identifySpeakers && meetingOptions.speakerDetection,
    punctuation: settings.punctuation,
    fillerWordRemoval: settings.fillerWordRemoval,
    noiseReduction: meetingOptions.noiseReduction,
    vocabulary,
  };
}

/** Whether a failed run is worth another try, and what the person reads if it is not. */
export function classifyFailure(error: unknown): { retryable: boolean; message: string } {
  if (error instanceof PermanentJobError || error instanceof AudioDecodeError || error instanceof StageTimeoutError)
    return { retryable: false, message: error.message };
  if (error instanceof TranscriptionServiceError) {
    const status = error.status;
    const clientError = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
    return { retryable: !clientError, message: error.message };
  }
  return { retryable: true, message: 'Transcription failed. Try again later.' };
}
