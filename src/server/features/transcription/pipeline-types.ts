import type { Db } from '#server/db/create-db.ts';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { RecognizedSegment } from './engines/engine.ts';
import type { VoiceEmbeddingOutput, VoiceTurn } from './speakers/voice-embedding-protocol.ts';
import type { BUILT_IN_VOICE_KEY } from './speakers/voice-embedding.ts';

/**
 * The contract between the stages of a meeting's transcription job: decode → recognise → identify
 * speakers → post-process → store. Each stage lives in its own module; the job runner composes them.
 */

/** What the pipeline does for one meeting: the person's Recording settings and the meeting's own options. */
export type PipelineOptions = {
  /** Settings › Recording "Speaker Diarization" and the meeting's "Speaker Detection" option, both on. */
  identifySpeakers: boolean;
  /** Settings › Recording "Automatic Punctuation": add sentence case and full stops where the engine gives none. */
  punctuation: boolean;
  /** Settings › Recording "Filler Word Removal": drop um, uh, er… from the stored text. */
  fillerWordRemoval: boolean;
  /** The meeting's "Noise Reduction" option: denoise while decoding. */
  noiseReduction: boolean;
  /** The custom vocabulary of the meeting (its owner's and its team's terms): given to the engine, then near-misses corrected. */
  vocabulary: readonly string[];
};

/** A recognised segment attributed to a speaker (index into SpeakerIdentification.speakers). */
export type AttributedSegment = RecognizedSegment & { speaker: number };

export type SpeakerIdentification = {
  speakers: { label: string }[];
  segments: AttributedSegment[];
};

/**
 * Single mixed track: voice activity detection and clustering of speaker turns, labelled
 * "Speaker 1", "Speaker 2", … Segments that span a speaker change are split at word boundaries.
 */
/** `maxSpeakers`: at most this many speakers (the meeting's attendees, when known). */
export type IdentifyOptions = { signal?: AbortSignal; maxSpeakers?: number };
export type IdentifySpeakers = (pcm: Pcm16k, segments: RecognizedSegment[], options?: IdentifyOptions) => Promise<SpeakerIdentification>;

/**
 * Speaker identification of a single mixed track heard a decoding window at a time (see
 * decodePcmWindows), so a long recording is never held whole: `hear` each window in order (its
 * first `ownMs` are its own, Infinity for the last, the rest is the next window's start heard early), then `identify` the
 * recording's segments once. Undefined where the configured method needs the whole track.
 */
export type SpeakerWindows = () => Promise<
  | {
      hear(window: { startMs: number; pcm: Pcm16k; ownMs: number }, options?: { signal?: AbortSignal }): Promise<void>;
      identify(segments: RecognizedSegment[], options?: IdentifyOptions): Promise<SpeakerIdentification>;
    }
  | undefined
>;

/**
 * How voices are described for voice profiles: sherpa-onnx's speaker-embedding model where it is
 * installed and loads (and speakers are not set to clustering), the built-in features otherwise.
 * `key` names the numbers' kind: voices are compared only with voices of the same key.
 */
export type VoicePath = { kind: 'sherpa-onnx'; model: string; key: string } | { kind: 'built-in'; key: typeof BUILT_IN_VOICE_KEY; reason: string };

/** Speakers' voices described from their turns of a recording (null: one spoke too little), by the path in use. */
export type DescribedVoices = { path: VoicePath; voices: VoiceEmbeddingOutput };
export type EmbedVoices = (pcm: Pcm16k, speakers: ReadonlyArray<readonly VoiceTurn[]>, options?: { signal?: AbortSignal }) => Promise<DescribedVoices>;

/**
 * Known voices named before a transcript is stored (the voice-profiles feature provides it, given in
 * deps.ts): a meeting's unnamed speakers compared with the voice profiles its owner's meetings may
 * use, so the transcript, and the notes written from it, carry the names from the start.
 * `describe` decodes the recording: called only when there is a profile to compare with.
 * Undefined: nothing to name or ask.
 */
export type NameKnownVoices = (meeting: { meetingId: string; ownerId: string }, describe: () => Promise<DescribedVoices>) => Promise<KnownVoices | undefined>;

export type KnownVoices = {
  /** Per speaker described, in that order: the person's name, or null. */
  names: (string | null)[];
  /**
   * What the owner is asked of the weaker matches ("Is this …?"), stored in the transaction that
   * stores the transcript, given the stored speakers' ids in the order described.
   */
  record: (trx: Db, speakerIds: readonly string[]) => Promise<void>;
};
