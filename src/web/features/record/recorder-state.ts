import type { DemoRecording } from './demo/demo-recording.ts';

/**
 * The recorder's state machine and what /record shows in each state. The recorder (capture/
 * use-recorder.ts) moves between phases only through `nextPhase`; the page reads its buttons,
 * status line and transcript panel from `describeRecordScreen`.
 */
export type RecorderPhase = 'idle' | 'starting' | 'recording' | 'paused' | 'stopped';

export type RecorderEvent = 'start' | 'started' | 'failed' | 'pause' | 'resume' | 'stop' | 'reset';

/** The events each phase answers and where they lead; any other event leaves the phase as it is. */
const TRANSITIONS: Record<RecorderPhase, Partial<Record<RecorderEvent, RecorderPhase>>> = {
  idle: { start: 'starting' },
  // Asking for the microphone and creating the meeting: either capture begins or nothing happened.
  starting: { started: 'recording', failed: 'idle' },
  recording: { pause: 'paused', stop: 'stopped' },
  paused: { resume: 'recording', stop: 'stopped' },
  // Stopped until the meeting is saved (reset), so one recording is never started over another.
  stopped: {},
};

export function nextPhase(phase: RecorderPhase, event: RecorderEvent): RecorderPhase {
  if (event === 'reset') return 'idle';
  return TRANSITIONS[phase][event] ?? phase;
}

export type TranscriptPanelMode = 'idle' | 'recording' | 'demo';

export type RecordScreen = {
  /** Capturing (paused or not), for real or as the demo: Stop replaces Start, options are locked. */
  recording: boolean;
  paused: boolean;
  canStart: boolean;
  canSave: boolean;
  status: string;
  panel: TranscriptPanelMode;
};

export function describeRecordScreen(input: { phase: RecorderPhase; demo: DemoRecording | null }): RecordScreen {
  const { phase, demo } = input;
  const recording = phase === 'recording' || phase === 'paused' || demo?.running === true;
  const paused = phase === 'paused' || demo?.paused === true;
  return {
    recording,
    paused,
    canStart: phase !== 'starting' && phase !== 'stopped',
    canSave: demo ? demo.seconds > 0 : phase !== 'idle' && phase !== 'starting',
    status: recording ? (paused ? 'Paused' : demo ? 'Demo recording' : 'Recording…') : phase === 'starting' ? 'Starting…' : 'Ready to record',
    panel: demo ? 'demo' : recording ? 'recording' : 'idle',
  };
}
