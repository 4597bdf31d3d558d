import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { appendChunk, createRecording, markStopped, type StoredRecording } from './recording-store.ts';
import { startChunkUploader, type ChunkUploader } from './chunk-uploader.ts';
import { nextPhase } from '../recorder-state.ts';

export type MicrophoneProblem = 'denied' | 'absent' | 'unsupported' | 'failed';

/** The container MediaRecorder will produce here: opus in webm (Chrome, Firefox) or mp4/aac (Safari). */
export function pickMimeType(): string {
  const candidates = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
  return candidates.find((type) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type)) ?? '';
}

export function microphoneProblem(error: unknown): MicrophoneProblem {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'absent';
  return 'failed';
}

type StartInput = {
  createMeeting: () => Promise<string>;
  title: string;
  getToken: () => Promise<string | undefined>;
  /** Capture has begun: the stream is live (the live transcript listens to it too); 2 channels with a tab. */
  onStarted?: (stream: MediaStream, meetingId: string, channels: number) => void;
  /** Opus bitrate (audio-bitrate.ts: the account's Audio Quality, or the "High Quality Audio" option's). */
  audioBitsPerSecond: number;
  /** A shared tab's audio to record as a second source next to the microphone (from getDisplayMedia). */
  tabAudio?: MediaStreamTrack;
};

/**
 * Capture for /record: MediaRecorder with 1-second chunks, each saved to IndexedDB and streamed to
 * the server; a pause-aware timer; input levels from AnalyserNodes. With a shared tab the recording
 * has two channels, the microphone on the first and the tab on the second.
 */
export function useRecorder() {
  // The browser's copy of a recording belongs to whoever made it (recording-store.ts: listed to them alone, forgotten at their sign-out).
  const ownerId = useAuth().user?.id;
  const ownerRef = useRef(ownerId);
  useEffect(() => {
    ownerRef.current = ownerId;
  }, [ownerId]);
  const [phase, dispatch] = useReducer(nextPhase, 'idle');
  const [seconds, setSeconds] = useState(0);
  const [level, setLevel] = useState(0);
  const [tabLevel, setTabLevel] = useState(0);
  const [bytesRecorded, setBytesRecorded] = useState(0);
  const [bytesAcked, setBytesAcked] = useState(0);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [recording, setRecording] = useState<StoredRecording | null>(null);

  const streamRef = useRef<MediaStream | null>(null);
  const tabTrackRef = useRef<MediaStreamTrack | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const uploaderRef = useRef<ChunkUploader | null>(null);
  const audioContextRef = useRef<AudioContext | null>(null);
  const secondsRef = useRef(0);
  const writesRef = useRef<Promise<unknown>>(Promise.resolve());

  // The timer ticks once a second while recording (spec §9), not while paused.
  useEffect(() => {
    if (phase !== 'recording') return;
    const timer = window.setInterval(() => {
      secondsRef.current += 1;
      setSeconds(secondsRef.current);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [phase]);

  const releaseDevices = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    tabTrackRef.current?.stop();
    tabTrackRef.current = null;
    void audioContextRef.current?.close();
    audioContextRef.current = null;
    setLevel(0);
    setTabLevel(0);
  }, []);

  useEffect(() => releaseDevices, [releaseDevices]);

  const start = useCallback(
    async (input: StartInput) => {
      dispatch('start');
      setUploadError(null);
      tabTrackRef.current = input.tabAudio ?? null;
      let stream: MediaStream;
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('unsupported'), { problem: 'unsupported' as const });
        stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
      } catch (error) {
        dispatch('failed');
        throw error;
      }
      streamRef.current = stream;
      const context = new AudioContext();
      audioContextRef.current = context;
      // With a shared tab, the recording has two channels, the microphone first and the tab second,
      // so the server can make each source its own speaker. If the tab stops, its channel is silent.
      const tab = input.tabAudio ? context.createMediaStreamSource(new MediaStream([input.tabAudio])) : null;
      const recordStream = tab ? mergeChannels(context, context.createMediaStreamSource(stream), tab) : stream;
      const mimeType = pickMimeType();
      const meetingId = await input.createMeeting().catch((error: unknown) => {
        releaseDevices();
        dispatch('failed');
        throw error;
      });
      const stored = await createRecording({ ownerId: ownerRef.current, meetingId, title: input.title, mimeType: mimeType || 'audio/webm' });
      setRecording(stored);
      secondsRef.current = 0;
      setSeconds(0);
      setBytesRecorded(0);
      setBytesAcked(0);

      const uploader = startChunkUploader({
        recordingId: stored.id,
        meetingId,
        mimeType: stored.mimeType,
        getToken: input.getToken,
        onProgress: setBytesAcked,
      });
      uploaderRef.current = uploader;
      // The uploader drops the local copy itself once the server holds the recording.
      uploader.finished.catch((error: Error) => setUploadError(error.message));

      const recorder = new MediaRecorder(recordStream, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: input.audioBitsPerSecond });
      recorder.ondataavailable = (event) => {
        if (event.data.size === 0) return;
        // Chunks are written in order; the uploader is woken once each is safe in IndexedDB.
        writesRef.current = writesRef.current
          .then(() => appendChunk(stored.id, event.data, secondsRef.current))
          .then((total) => {
            setBytesRecorded(total);
            uploader.notify();
          });
      };
      recorder.onstop = () => {
        writesRef.current = writesRef.current.then(() => markStopped(stored.id, secondsRef.current)).then(() => uploader.notify());
      };
      recorder.start(1000);
      recorderRef.current = recorder;

      const micLevel = levelOf(context, context.createMediaStreamSource(stream));
      const tabLevelOf = tab ? levelOf(context, tab) : null;
      const measure = () => {
        if (audioContextRef.current !== context) return;
        setLevel(micLevel());
        if (tabLevelOf) setTabLevel(tabLevelOf());
        requestAnimationFrame(measure);
      };
      requestAnimationFrame(measure);
      dispatch('started');
      input.onStarted?.(recordStream, meetingId, tab ? 2 : 1);
    },
    [releaseDevices],
  );

  const pause = useCallback(() => {
    recorderRef.current?.pause();
    dispatch('pause');
  }, []);

  const resume = useCallback(() => {
    recorderRef.current?.resume();
    dispatch('resume');
  }, []);

  /** Stops capture; the upload finishes in the background (the returned promise tracks it). */
  const stop = useCallback(async (): Promise<void> => {
    const recorder = recorderRef.current;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    recorderRef.current = null;
    releaseDevices();
    dispatch('stop');
    await writesRef.current;
  }, [releaseDevices]);

  const reset = useCallback(() => {
    secondsRef.current = 0;
    setSeconds(0);
    dispatch('reset');
    setRecording(null);
    setBytesRecorded(0);
    setBytesAcked(0);
    uploaderRef.current = null;
  }, []);

  return {
    phase,
    seconds,
    level,
    tabLevel,
    bytesRecorded,
    bytesAcked,
    uploadError,
    recording,
    uploadFinished: () => uploaderRef.current?.finished ?? Promise.resolve(),
    start,
    pause,
    resume,
    stop,
    reset,
  };
}

/** Microphone on channel 1, tab audio on channel 2, as one stereo stream for MediaRecorder. */
function mergeChannels(context: AudioContext, microphone: AudioNode, tab: AudioNode): MediaStream {
  const merger = context.createChannelMerger(2);
  microphone.connect(merger, 0, 0);
  tab.connect(merger, 0, 1);
  const destination = context.createMediaStreamDestination();
  destination.channelCount = 2;
  destination.channelInterpretation = 'discrete';
  merger.connect(destination);
  return destination.stream;
}

/** A source's loudness now, 0..1, for a level meter. */
function levelOf(context: AudioContext, source: AudioNode): () => number {
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  source.connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  return () => {
    analyser.getByteTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += ((sample - 128) / 128) ** 2;
    return Math.min(1, Math.sqrt(sum / samples.length) * 4);
  };
}
