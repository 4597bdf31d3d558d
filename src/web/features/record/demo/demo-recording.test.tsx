import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoReducer, useDemoRecording, type DemoEvent, type DemoRecording } from './demo-recording.ts';
import { DEMO_LINES } from './demo-transcript.ts';

const run = (events: DemoEvent[], from: DemoRecording | null = null) => events.reduce(demoReducer, from);
const ticks = (n: number): DemoEvent[] => Array.from({ length: n }, () => ({ type: 'tick' }));

describe('the demo recording', () => {
  it('starts with the first canned line and adds each one when the timer reaches its time', () => {
    expect(run([{ type: 'start' }])).toEqual({ running: true, paused: false, seconds: 0, lines: [DEMO_LINES[0]] });
    expect(run([{ type: 'start' }, ...ticks(4)])?.lines).toHaveLength(1);
    expect(run([{ type: 'start' }, ...ticks(5)])?.lines.map((line) => line.speaker)).toEqual(['Alex Johnson', 'Sarah Miller']);
    expect(run([{ type: 'start' }, ...ticks(60)])?.lines).toEqual(DEMO_LINES);
  });

  it('stands still while paused or stopped, keeps its lines when stopped, and is gone once discarded', () => {
    const paused = run([{ type: 'start' }, ...ticks(6), { type: 'toggle-pause' }, ...ticks(10)]);
    expect(paused).toMatchObject({ running: true, paused: true, seconds: 6 });
    expect(run([{ type: 'toggle-pause' }, ...ticks(2)], paused)).toMatchObject({ paused: false, seconds: 8 });
    const stopped = run([{ type: 'stop' }, ...ticks(5), { type: 'toggle-pause' }], paused);
    expect(stopped).toMatchObject({ running: false, paused: false, seconds: 6 });
    expect(stopped?.lines).toHaveLength(2);
    expect(run([{ type: 'discard' }], stopped)).toBeNull();
    expect(run([...ticks(3), { type: 'toggle-pause' }, { type: 'stop' }])).toBeNull();
  });
});

describe('useDemoRecording', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks once a second while running, not while paused', () => {
    const { result } = renderHook(() => useDemoRecording());
    act(() => result.current.dispatch({ type: 'start' }));
    act(() => void vi.advanceTimersByTime(3000));
    expect(result.current.demo?.seconds).toBe(3);
    act(() => result.current.dispatch({ type: 'toggle-pause' }));
    act(() => void vi.advanceTimersByTime(5000));
    expect(result.current.demo?.seconds).toBe(3);
    act(() => result.current.dispatch({ type: 'toggle-pause' }));
    act(() => void vi.advanceTimersByTime(2000));
    expect(result.current.demo?.seconds).toBe(5);
  });
});
