import { useEffect, useReducer } from 'react';
import { DEMO_LINES, type TranscriptLine } from './demo-transcript.ts';

/**
 * The demo recording offered when the microphone cannot be used: a timer that runs like a real
 * recording and the spec's canned lines, each appearing when the timer reaches its timestamp.
 */
export type DemoRecording = { running: boolean; paused: boolean; seconds: number; lines: TranscriptLine[] };

export type DemoEvent = { type: 'start' } | { type: 'tick' } | { type: 'toggle-pause' } | { type: 'stop' } | { type: 'discard' };

const toSeconds = (time: string): number => {
  const [mm = '0', ss = '0'] = time.split(':');
  return Number(mm) * 60 + Number(ss);
};

/** null: no demo on screen. A stopped demo keeps its lines and time until it is saved (discarded). */
export function demoReducer(demo: DemoRecording | null, event: DemoEvent): DemoRecording | null {
  switch (event.type) {
    case 'start':
      return { running: true, paused: false, seconds: 0, lines: DEMO_LINES.slice(0, 1) };
    case 'tick': {
      if (!demo?.running || demo.paused) return demo;
      const seconds = demo.seconds + 1;
      return { ...demo, seconds, lines: DEMO_LINES.filter((line) => toSeconds(line.time) <= seconds) };
    }
    case 'toggle-pause':
      return demo?.running ? { ...demo, paused: !demo.paused } : demo;
    case 'stop':
      return demo && { ...demo, running: false, paused: false };
    case 'discard':
      return null;
  }
}

/** The demo's state, with its timer ticking once a second while it runs and is not paused. */
export function useDemoRecording() {
  const [demo, dispatch] = useReducer(demoReducer, null);
  const ticking = demo?.running === true && !demo.paused;
  useEffect(() => {
    if (!ticking) return;
    const timer = window.setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => window.clearInterval(timer);
  }, [ticking]);
  return { demo, dispatch };
}
