import { createHostSlot, hostEntry, startHost, type Host } from '#server/lib/child-host/host-client.ts';
import type { Pcm16k } from '#server/lib/ffmpeg.ts';
import type { RecognizedSegment, RecognizedWord } from '../engines/engine.ts';
import { PermanentJobError } from '../pipeline.ts';
import type { AttributedSegment, EmbedVoices, IdentifySpeakers, SpeakerIdentification, SpeakerWindows, VoicePath } from '../pipeline-types.ts';
import { joinFeatures, ownFeatures, type SpeechFeatures } from './cluster-speakers.ts';
import type { ClusteringHostConfig, ClusteringHostLoaded, ClusteringInput, ClusteringOutput } from './clustering-protocol.ts';
import type { Turn } from './diarization-error-rate.ts';
import { createSherpaDiarizer, type SherpaDiarizer } from './sherpa-diarization.ts';
import { createSherpaVoiceEmbedder, type SherpaVoiceEmbedder } from './sherpa-voice-embedding.ts';
import { voicesInput, type VoiceEmbeddingOutput } from './voice-embedding-protocol.ts';
import { FRAME_MS } from './speaker-features.ts';
import { BUILT_IN_VOICE_KEY } from './voice-embedding.ts';
import { createSpeechDetector } from './voice-activity.ts';

/**
 * Who spoke when, on one mixed track. Two methods, each run in its own host process so the
 * server's event loop never waits on them:
 * - clustering (always there): voice activity, MFCC windows, agglomerative clustering — see
 *   cluster-speakers.ts, run by clustering-host.ts;
 * - sherpa-onnx (once its pyannote segmentation and speaker-embedding models are fetched): neural
 *   segmentation and voice embeddings, see sherpa-diarization.ts.
 * Either way each recognised word then takes the speaker of its time and segments are split where
 * the speaker changes; speakers are numbered in order of first appearance.
 */

/** TRANSCRIBE_SPEAKERS: `auto` prefers sherpa-onnx when its models are installed and load. */
export type SpeakerMethodSetting = 'auto' | 'clustering' | 'sherpa-onnx';
export type SpeakerMethod = 'clustering' | 'sherpa-onnx';

export type SpeakerIdentifierOptions = {
  method?: SpeakerMethodSetting;
  /** $DATA_DIR/models: sherpa-onnx's diarization models and an installed Silero VAD. */
  modelsDir?: string;
  /** sherpa-onnx's clustering threshold (see sherpa-diarization.ts). */
  sherpaThreshold?: number;
  /** Told when `auto` meant sherpa-onnx but it failed on this recording and clustering answered. */
  onFallback?: (reason: string) => void;
  /** The host processes (and their memory) are let go after this long without work (default 10 min). */
  idleMs?: number;
};

export type SpeakerIdentifierStatus = {
  method: SpeakerMethod;
  /** What clustering hears speech with. */
  voiceActivity: 'silero' | 'energy';
  /** Why sherpa-onnx is not used, and why Silero is not, where they are not. */
  reasons: string[];
};

export type { VoicePath } from '../pipeline-types.ts';

export type SpeakerIdentifier = {
  identify: IdentifySpeakers;
  /** The voice-embedding path embedVoices() uses now. */
  voicePath(): Promise<VoicePath>;
  /** Each speaker's voice described from their turns of the recording (null: too little speech); the audio is not kept. */
  embedVoices: EmbedVoices;
  /** identify() a decoding window at a time, for recordings too long to hold whole (see pipeline-types.ts). */
  windowed: SpeakerWindows;
  /** The method identify() uses now, for the start-up log and the status page. */
  status(): Promise<SpeakerIdentifierStatus>;
  /** Stops the host processes. */
  close(): Promise<void>;
};

/** Speaker identification as configured: sherpa-onnx diarization where chosen and available, clustering otherwise. */
export function createSpeakerIdentifier(options: SpeakerIdentifierOptions = {}): SpeakerIdentifier {
  const setting = options.method ?? 'auto';
  const sherpa: SherpaDiarizer | undefined =
    setting !== 'clustering' && options.modelsDir
      ? createSherpaDiarizer({ modelsDir: options.modelsDir, threshold: options.sherpaThreshold, idleMs: options.idleMs })
      : undefined;
  const embedder: SherpaVoiceEmbedder | undefined =
    setting !== 'clustering' && options.modelsDir ? createSherpaVoiceEmbedder({ modelsDir: options.modelsDir, idleMs: options.idleMs }) : undefined;
  // Started on first use, not at start: a server that never transcribes never pays for it.
  const clustering = createHostSlot<ClusteringHost>();
  const clusteringHost = () =>
    clustering.get('clustering', () =>
      startHost<ClusteringHostConfig, ClusteringHostLoaded, ClusteringInput, ClusteringOutput>({
        entry: hostEntry(import.meta.url, 'clustering-host'),
        config: { modelsDir: options.modelsDir },
        // Clustering runs to the end without looking up: a cancelled job ends the host.
        abort: 'kill',
        idleMs: options.idleMs ?? 10 * 60_000,
        loadTimeoutMs: 60_000,
        words: {
          stopped: 'the speaker clustering process stopped',
          failed: 'speakers could not be told apart',
          cancelled: 'Speaker identification was cancelled.',
        },
      }),
    );

  /** What the clustering host hears speech with: as it said when it loaded, else as a probe here finds (without starting a host at every server start). */
  let heard: ClusteringHostLoaded | undefined;
  const voiceActivity = (): ClusteringHostLoaded => {
    if (heard) return heard;
    const probe = createSpeechDetector({ modelsDir: options.modelsDir });
    return (heard = { voiceActivity: probe.detector.name, ...(probe.reason ? { reason: probe.reason } : {}) });
  };

  /** The clustering host's description of some audio (speech, windows' features): kept, where the audio is not. */
  const featuresOf = async (pcm: Pcm16k, signal?: AbortSignal) => {
    const host = await clusteringHost();
    heard = host.loaded;
    return (await host.run(pcm, { signal })) as SpeechFeatures;
  };
  const clusterOver = async (features: SpeechFeatures, segments: RecognizedSegment[], signal?: AbortSignal, maxSpeakers?: number) =>
    attributeSegments(segments, (await (await clusteringHost()).run({ cluster: features, maxSpeakers }, { signal })) as Int16Array);
  const cluster = async (pcm: Pcm16k, segments: RecognizedSegment[], signal?: AbortSignal, maxSpeakers?: number) =>
    clusterOver(await featuresOf(pcm, signal), segments, signal, maxSpeakers);

  const status = async (): Promise<SpeakerIdentifierStatus> => {
    const reasons: string[] = [];
    let method: SpeakerMethod = 'clustering';
    if (setting === 'clustering') reasons.push('sherpa-onnx diarization: not chosen (TRANSCRIBE_SPEAKERS=clustering)');
    else if (!sherpa) reasons.push('sherpa-onnx diarization: no models folder');
    else {
      const availability = await sherpa.checkAvailability();
      if (availability.available) method = 'sherpa-onnx';
      else reasons.push(availability.reason);
    }
    const vad = voiceActivity();
    if (vad.reason) reasons.push(vad.reason);
    return { method, voiceActivity: vad.voiceActivity, reasons };
  };

  const identify: IdentifySpeakers = async (pcm, segments, identifyOptions = {}) => {
    const { signal, maxSpeakers } = identifyOptions;
    if (!sherpa) {
      if (setting === 'sherpa-onnx')
        throw new PermanentJobError('Speaker identification is set to sherpa-onnx (TRANSCRIBE_SPEAKERS) but no models folder is configured.');
      return cluster(pcm, segments, signal, maxSpeakers);
    }
    const availability = await sherpa.checkAvailability();
    if (!availability.available) {
      // Chosen outright, sherpa-onnx missing is the installation's to fix, not something a retry mends.
      if (setting === 'sherpa-onnx') throw new PermanentJobError(`Speakers could not be told apart: ${availability.reason}`);
      return cluster(pcm, segments, signal, maxSpeakers);
    }
    try {
      return attributeSegments(segments, framesFromTurns(await sherpa.diarize(pcm, { signal }), pcm));
    } catch (error) {
      // A cancelled job stays cancelled; with sherpa-onnx chosen outright its failure is the job's.
      if (signal?.aborted || setting === 'sherpa-onnx') throw error;
      options.onFallback?.(error instanceof Error ? error.message : String(error));
      return cluster(pcm, segments, signal, maxSpeakers);
    }
  };

  /**
   * A recording's decoding windows one at a time. The first is held until a second comes: a
   * recording of one window is identified whole, as identify() does (sherpa-onnx where it is used).
   * A longer one is clustered: each window's own features are kept (about 1 KB per 0.75 s of
   * speech), its audio let go, and the windows are clustered together at the end, so one voice is
   * one speaker across the whole meeting. sherpa-onnx takes a whole recording at once and cannot
   * join speakers across windows: chosen outright (TRANSCRIBE_SPEAKERS=sherpa-onnx), it is given
   * the whole track (undefined here); under `auto`, recordings longer than a window are clustered.
   */
  const windowed: SpeakerWindows = async () => {
    if (setting === 'sherpa-onnx') return undefined;
    let first: { pcm: Pcm16k; startMs: number; ownMs: number } | undefined;
    const kept: SpeechFeatures[] = [];
    const keep = async (window: { pcm: Pcm16k; startMs: number; ownMs: number }, signal?: AbortSignal) => {
      const all = await featuresOf(window.pcm, signal);
      kept.push(ownFeatures(all, window.ownMs / FRAME_MS, window.startMs / FRAME_MS));
    };
    return {
      async hear(window, hearOptions = {}) {
        if (kept.length === 0 && !first) {
          // Copied: the decoder may reuse what it handed over once the next window is asked for.
          first = { ...window, pcm: Buffer.from(window.pcm) };
          return;
        }
        if (first) {
          await keep(first, hearOptions.signal);
          first = undefined;
        }
        await keep(window, hearOptions.signal);
      },
      async identify(segments, identifyOptions = {}) {
        if (first) return identify(first.pcm, segments, identifyOptions);
        if (sherpa && setting === 'auto' && (await sherpa.checkAvailability()).available)
          options.onFallback?.('sherpa-onnx diarization takes a recording whole; one longer than a decoding window is clustered');
        return clusterOver(joinFeatures(kept), segments, identifyOptions.signal, identifyOptions.maxSpeakers);
      },
    };
  };

  const voicePath = async (): Promise<VoicePath> => {
    if (!embedder) {
      const reason = setting === 'clustering' ? 'speakers are set to clustering (TRANSCRIBE_SPEAKERS=clustering)' : 'no models folder';
      return { kind: 'built-in', key: BUILT_IN_VOICE_KEY, reason };
    }
    const availability = await embedder.checkAvailability();
    const model = embedder.model();
    if (availability.available && model) return { kind: 'sherpa-onnx', model: model.manifest.name, key: `sherpa-onnx:${model.manifest.name}` };
    return { kind: 'built-in', key: BUILT_IN_VOICE_KEY, reason: availability.available ? 'no speaker embedding model installed' : availability.reason };
  };

  const embedVoices: SpeakerIdentifier['embedVoices'] = async (pcm, speakers, embedOptions = {}) => {
    const input = voicesInput(pcm, speakers);
    const path = await voicePath();
    if (path.kind === 'sherpa-onnx') return { path, voices: await embedder!.embed(input, embedOptions) };
    return { path, voices: (await (await clusteringHost()).run(input, embedOptions)) as VoiceEmbeddingOutput };
  };

  return {
    identify,
    windowed,
    status,
    voicePath,
    embedVoices,
    async close() {
      await Promise.all([sherpa?.close(), embedder?.close(), clustering.close()]);
    },
  };
}

type ClusteringHost = Host<ClusteringHostLoaded, ClusteringInput, ClusteringOutput>;

/** Turns (from sherpa-onnx) as per-frame labels; where two speakers overlap, the later turn's speaker. */
export function framesFromTurns(turns: Turn[], pcm: Pcm16k): Int16Array {
  const labels = new Int16Array(Math.ceil(pcm.length / 2 / ((FRAME_MS * 16_000) / 1000))).fill(-1);
  const ids = [...new Set(turns.map((t) => t.speaker))];
  for (const turn of turns) {
    const speaker = ids.indexOf(turn.speaker);
    for (let f = Math.max(0, Math.floor(turn.startMs / FRAME_MS)); f < Math.min(labels.length, Math.ceil(turn.endMs / FRAME_MS)); f++) labels[f] = speaker;
  }
  return labels;
}

/** Speaker of a word: the most frequent label over its frames (nearest labelled frame if none). */
function speakerOfWord(word: Pick<RecognizedWord, 'startMs' | 'endMs'>, labels: Int16Array, labelled: boolean): number {
  const first = Math.max(0, Math.floor(word.startMs / FRAME_MS));
  const last = Math.min(labels.length - 1, Math.ceil(word.endMs / FRAME_MS));
  const tally = new Map<number, number>();
  for (let f = first; f <= last; f++) if (labels[f]! >= 0) tally.set(labels[f]!, (tally.get(labels[f]!) ?? 0) + 1);
  if (tally.size > 0) return [...tally.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  if (!labelled) return 0;
  for (let d = 1; d < labels.length; d++) {
    if (labels[first - d] !== undefined && labels[first - d]! >= 0) return labels[first - d]!;
    if (labels[last + d] !== undefined && labels[last + d]! >= 0) return labels[last + d]!;
  }
  return 0;
}

export function attributeSegments(segments: RecognizedSegment[], labels: Int16Array): SpeakerIdentification {
  const out: AttributedSegment[] = [];
  // Nobody heard anywhere (hours of silence or noise): no word searches the whole recording for a speaker.
  const labelled = labels.some((label) => label >= 0);
  for (const segment of segments) {
    const words =
      segment.words.length > 0 ? segment.words : [{ text: segment.text, startMs: segment.startMs, endMs: segment.endMs, confidence: segment.confidence }];
    let current: { speaker: number; words: RecognizedWord[] } | undefined;
    const flush = () => {
      if (!current) return;
      const ws = current.words;
      const single = segment.words.length === 0;
      out.push({
        startMs: single ? segment.startMs : ws[0]!.startMs,
        endMs: single ? segment.endMs : ws.at(-1)!.endMs,
        text: single ? segment.text : ws.map((w) => w.text).join(' '),
        words: single ? [] : ws,
        confidence: single ? segment.confidence : ws.reduce((s, w) => s + w.confidence, 0) / ws.length,
        speaker: current.speaker,
      });
    };
    for (const word of words) {
      const speaker = speakerOfWord(word, labels, labelled);
      if (current?.speaker === speaker) current.words.push(word);
      else {
        flush();
        current = { speaker, words: [word] };
      }
    }
    flush();
  }
  // Speakers numbered in order of first appearance: "Speaker 1" speaks first.
  const order: number[] = [];
  for (const s of out) if (!order.includes(s.speaker)) order.push(s.speaker);
  return {
    speakers: order.map((_, i) => ({ label: `Speaker ${i + 1}` })),
    segments: out.map((s) => ({ ...s, speaker: order.indexOf(s.speaker) })),
  };
}
