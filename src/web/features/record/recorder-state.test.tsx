import { describe, expect, it } from 'vitest';
import { describeRecordScreen, nextPhase, type RecorderEvent, type RecorderPhase } from './recorder-state.ts';

const run = (events: RecorderEvent[], from: RecorderPhase = 'idle') => events.reduce(nextPhase, from);

describe('the recorder state machine', () => {
  it('goes idle → starting → recording ⇄ paused → stopped, and back to idle when the meeting is saved', () => {
    expect(run(['start'])).toBe('starting');
    expect(run(['start', 'started'])).toBe('recording');
    expect(run(['start', 'started', 'pause'])).toBe('paused');
    expect(run(['start', 'started', 'pause', 'resume'])).toBe('recording');
    expect(run(['start', 'started', 'pause', 'stop'])).toBe('stopped');
    expect(run(['start', 'started', 'stop', 'reset'])).toBe('idle');
  });

  it('returns to idle when the microphone or the meeting could not be had', () => {
    expect(run(['start', 'failed'])).toBe('idle');
  });

  it('ignores events a phase does not answer', () => {
    expect(run(['pause', 'resume', 'stop', 'started'])).toBe('idle');
    expect(run(['start', 'pause', 'stop'])).toBe('starting');
    expect(run(['start', 'started', 'stop', 'start', 'resume'])).toBe('stopped');
  });
});

describe('what /record shows', () => {
  const screen = (phase: RecorderPhase, extra: Partial<Parameters<typeof describeRecordScreen>[0]> = {}) =>
    describeRecordScreen({ phase, demo: null, ...extra });

  it('follows the recorder: ready, starting, recording, paused, stopped', () => {
    expect(screen('idle')).toEqual({ recording: false, paused: false, canStart: true, canSave: false, status: 'Ready to record', panel: 'idle' });
    expect(screen('starting')).toMatchObject({ recording: false, canStart: false, canSave: false, status: 'Starting…' });
    expect(screen('recording')).toMatchObject({ recording: true, paused: false, canSave: true, status: 'Recording…', panel: 'recording' });
    expect(screen('paused')).toMatchObject({ recording: true, paused: true, status: 'Paused' });
    expect(screen('stopped')).toMatchObject({ recording: false, canStart: false, canSave: true, status: 'Ready to record' });
  });

  it('during the demo: its own status and panel, and Save once its timer has run', () => {
    const demo = { running: true, paused: false, seconds: 0, lines: [] };
    expect(screen('idle', { demo })).toMatchObject({ recording: true, status: 'Demo recording', panel: 'demo', canSave: false });
    expect(screen('idle', { demo: { ...demo, paused: true, seconds: 3 } })).toMatchObject({ paused: true, status: 'Paused', canSave: true });
    expect(screen('idle', { demo: { ...demo, running: false, seconds: 3 } })).toMatchObject({ recording: false, panel: 'demo', canSave: true });
  });
});
