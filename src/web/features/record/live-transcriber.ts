import { LIVE_CLOSE, LIVE_PATH, LIVE_SAMPLE_RATE, LiveServerMessageSchema, type LiveLine } from '#shared/contracts/live.ts';

export type LiveStatus = { state: 'connecting' } | { state: 'listening' } | { state: 'unavailable'; reason: string };

export type LiveSession = { pause: () => void; resume: () => void; stop: () => void };

const REASONS: Record<number, string> = {
  [LIVE_CLOSE.unavailable]: 'live transcription is not installed on this server',
  [LIVE_CLOSE.busy]: 'the server is busy',
  [LIVE_CLOSE.unauthenticated]: 'your session expired',
};

/**
 * Streams the microphone to /realtime/live as 16 kHz PCM (an AudioWorklet converts it) and reports
 * the recognised lines. Paused audio is not sent, so line times match the recording's timer.
 */
export async function startLiveTranscript(input: {
  stream: MediaStream;
  meetingId: string;
  getToken: () => Promise<string | undefined>;
  onLine: (line: LiveLine) => void;
  onStatus: (status: LiveStatus) => void;
}): Promise<LiveSession> {
  input.onStatus({ state: 'connecting' });
  const context = new AudioContext({ sampleRate: LIVE_SAMPLE_RATE });
  await context.audioWorklet.addModule('/pcm-capture-worklet.js');
  const capture = new AudioWorkletNode(context, 'pcm-capture');
  context.createMediaStreamSource(input.stream).connect(capture);
  capture.connect(context.destination); // a node must reach the destination to be run; it outputs silence

  let paused = false;
  let stopped = false;
  let ready = false;
  const socket = new WebSocket(`${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${LIVE_PATH}`);
  socket.binaryType = 'arraybuffer';
  socket.onopen = async () => socket.send(JSON.stringify({ type: 'auth', accessToken: (await input.getToken()) ?? '', meetingId: input.meetingId }));
  socket.onmessage = (event) => {
    const parsed = LiveServerMessageSchema.safeParse(JSON.parse(String(event.data)));
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'ready') {
      ready = true;
      input.onStatus({ state: 'listening' });
    } else if (message.type === 'line') input.onLine(message.line);
    else input.onStatus({ state: 'unavailable', reason: message.message });
  };
  socket.onclose = (event) => {
    if (stopped) return;
    input.onStatus({ state: 'unavailable', reason: REASONS[event.code] ?? 'the connection to the server was lost' });
  };
  capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
    if (ready && !paused && socket.readyState === WebSocket.OPEN) socket.send(event.data);
  };

  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    stop: () => {
      stopped = true;
      socket.close(1000, 'Recording stopped');
      capture.port.onmessage = null;
      void context.close();
    },
  };
}
