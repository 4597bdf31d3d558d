import { LIVE_CLOSE, LIVE_PATH, LIVE_SAMPLE_RATE, LiveServerMessageSchema, type LiveClientMessage, type LiveLine } from '#shared/contracts/live.ts';

export type LiveStatus =
  | { state: 'connecting' }
  /** Every recogniser of the server is busy: in line, `position` 1 next. */
  | { state: 'waiting'; position: number }
  | { state: 'listening'; speakers: string[] }
  | { state: 'unavailable'; reason: string };

export type LiveSession = { pause: () => void; resume: () => void; stop: () => void };

/** Closes after which trying again cannot help; the reason is shown in the panel. */
const FINAL_REASONS: Partial<Record<number, string>> = {
  [LIVE_CLOSE.unavailable]: 'live transcription is not installed on this server',
  [LIVE_CLOSE.busy]: 'the server is busy',
  [LIVE_CLOSE.notFound]: 'this recording is no longer in progress',
  [LIVE_CLOSE.badMessage]: 'this browser sent audio the server could not read',
  [LIVE_CLOSE.planLimit]: 'your plan does not include real-time transcription',
};
const MAX_RETRIES = 5;
/**
 * Audio kept while (re)connecting, so that words said meanwhile are not lost: up to the last 10 s
 * (the first reconnection comes after 1 s, the fifth after 16).
 */
const MAX_BUFFERED_MS = 10_000;

/**
 * Streams the recording to /realtime/live as 16 kHz PCM, one channel per capture source (an
 * AudioWorklet converts it), and reports the recognised lines. Paused audio is not sent, so line
 * times match the recording's timer; a dropped connection is retried, and the audio captured until
 * it is back (up to 10 s) is sent then, on the same clock. While the server has no free recogniser
 * the session waits in line, its audio still sent: the server counts it on the recording's clock, so
 * the lines heard once a recogniser is free are timed right.
 */
export async function startLiveTranscript(input: {
  stream: MediaStream;
  /** 1 for the microphone alone, 2 when a shared tab is recorded on the second channel. */
  channels: number;
  meetingId: string;
  getToken: () => Promise<string | undefined>;
  onLine: (line: LiveLine) => void;
  onStatus: (status: LiveStatus) => void;
}): Promise<LiveSession> {
  const { channels } = input;
  input.onStatus({ state: 'connecting' });
  const context = new AudioContext({ sampleRate: LIVE_SAMPLE_RATE });
  await context.audioWorklet.addModule('/pcm-capture-worklet.js');
  // 'discrete' keeps channel 1 the microphone and channel 2 the tab instead of mixing them.
  const capture = new AudioWorkletNode(context, 'pcm-capture', {
    channelCount: channels,
    channelCountMode: 'explicit',
    channelInterpretation: channels === 1 ? 'speakers' : 'discrete',
    processorOptions: { channels },
  });
  context.createMediaStreamSource(input.stream).connect(capture);
  capture.connect(context.destination); // a node must reach the destination to be run; it outputs silence

  let paused = false;
  let stopped = false;
  let failed = false;
  let retries = 0;
  /** Recording time (pauses excluded) the audio produced so far covers: the clock lines are timed on. */
  let recordedMs = 0;
  let socket: WebSocket | null = null;
  let ready = false;
  /** In the server's line for a recogniser: audio is sent (it keeps the clock) but not heard. */
  let queued = false;
  /** Audio not yet sent, and the recording time it starts at: the next connection starts its clock there. */
  let buffered: ArrayBuffer[] = [];
  let bufferedMs = 0;
  let bufferStartMs = 0;
  const durationMs = (frame: ArrayBuffer) => frame.byteLength / 2 / channels / (LIVE_SAMPLE_RATE / 1000);

  const connect = () => {
    ready = false;
    queued = false;
    const offsetMs = Math.round(buffered.length > 0 ? bufferStartMs : recordedMs);
    const ws = new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${LIVE_PATH}`);
    socket = ws;
    ws.binaryType = 'arraybuffer';
    const say = (message: LiveClientMessage) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
    ws.onopen = async () => say({ type: 'auth', accessToken: (await input.getToken()) ?? '', meetingId: input.meetingId, channels, offsetMs });
    ws.onmessage = (event) => {
      // Stopped: a message already on its way belongs to a recording that is over.
      if (stopped) return;
      let parsed;
      try {
        parsed = LiveServerMessageSchema.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'waiting') {
        if (!queued) {
          queued = true;
          for (const frame of buffered) ws.send(frame);
          buffered = [];
          bufferedMs = 0;
          if (paused) say({ type: 'pause' });
        }
        input.onStatus({ state: 'waiting', position: message.position });
      } else if (message.type === 'ready') {
        ready = true;
        queued = false;
        retries = 0;
        for (const frame of buffered) ws.send(frame);
        buffered = [];
        bufferedMs = 0;
        if (paused) say({ type: 'pause' });
        input.onStatus({ state: 'listening', speakers: message.speakers });
      } else if (message.type === 'line') input.onLine(message.line);
      else if (message.type === 'error') {
        failed = true;
        input.onStatus({ state: 'unavailable', reason: message.message.replace(/\.$/, '') });
      }
    };
    ws.onclose = (event) => {
      if (stopped || socket !== ws) return;
      socket = null;
      const final = FINAL_REASONS[event.code];
      if (failed || final || retries >= MAX_RETRIES) {
        failed = true;
        if (final || retries >= MAX_RETRIES) input.onStatus({ state: 'unavailable', reason: final ?? 'the connection to the server was lost' });
        return;
      }
      // A paused session that the server let go is picked up again when the recording resumes.
      if (paused) return input.onStatus({ state: 'connecting' });
      retries += 1;
      input.onStatus({ state: 'connecting' });
      window.setTimeout(() => !stopped && !socket && connect(), 1000 * 2 ** (retries - 1));
    };
  };

  capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
    if (paused || stopped) return;
    const ms = durationMs(event.data);
    if ((ready || queued) && socket?.readyState === WebSocket.OPEN) socket.send(event.data);
    else if (!failed) {
      // Connecting, or waiting to reconnect: keep the newest audio, moving its start past what is dropped.
      if (buffered.length === 0) bufferStartMs = recordedMs;
      buffered.push(event.data);
      bufferedMs += ms;
      while (bufferedMs > MAX_BUFFERED_MS && buffered.length > 1) {
        const dropped = durationMs(buffered.shift()!);
        bufferedMs -= dropped;
        bufferStartMs += dropped;
      }
    }
    recordedMs += ms;
  };
  connect();

  return {
    pause: () => {
      paused = true;
      if ((ready || queued) && socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'pause' } satisfies LiveClientMessage));
    },
    resume: () => {
      paused = false;
      if (!socket && !failed && !stopped) connect();
    },
    stop: () => {
      stopped = true;
      socket?.close(1000, 'Recording stopped');
      capture.port.onmessage = null;
      void context.close();
    },
  };
}
