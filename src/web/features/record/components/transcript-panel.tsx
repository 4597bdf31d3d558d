import { useLayoutEffect, useRef } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { TranscriptLine } from '../demo/demo-transcript.ts';
import type { LiveStatus } from '../live/live-transcriber.ts';
import type { TranscriptPanelMode as PanelMode } from '../recorder-state.ts';

/** The server's recognisers are all busy: the live transcript starts when one frees (the recording is unaffected). */
const waitingText = (position: number) =>
  `Recording. Waiting for a free live-transcription slot (${position === 1 ? 'next in line' : `number ${position} in line`}); lines appear once one frees.`;

function emptyText(mode: PanelMode, live: LiveStatus | null): string {
  if (mode === 'recording') {
    if (live?.state === 'unavailable') return `The live transcript is unavailable (${live.reason}). Recording goes on; the transcript is made when you stop.`;
    if (live?.state === 'waiting') return waitingText(live.position);
    if (live?.state === 'listening') {
      // Live lines are named by their source; the saved transcript tells the voices apart.
      const sources =
        live.speakers.length > 1
          ? ` Your microphone’s lines are marked “${live.speakers[0]}”, the shared tab’s “${live.speakers[1]}”.`
          : ` Your microphone’s lines are marked “${live.speakers[0] ?? 'You'}”; the saved transcript tells the voices in the room apart.`;
      return `Listening… each sentence appears here a few seconds after it is spoken.${sources}`;
    }
    return 'Recording. Connecting the live transcript…';
  }
  return 'Press Start Recording. Lines appear here as you speak; the full transcript comes with the saved meeting.';
}

/** Within this distance of the bottom, the panel follows new lines; further up, the person is reading. */
const FOLLOW_PX = 48;

/** The live transcription panel (300px, spec §9): live lines, cleared on save (the meeting's page then shows its transcript). */
export function TranscriptPanel({ lines, mode, live = null }: { lines: TranscriptLine[]; mode: PanelMode; live?: LiveStatus | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [lines]);
  const description = mode === 'demo' ? 'Demo recording — simulated lines' : 'Speakers and timestamps';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Live transcription</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <div
          ref={scroller}
          onScroll={(e) => (following.current = e.currentTarget.scrollHeight - e.currentTarget.scrollTop - e.currentTarget.clientHeight < FOLLOW_PX)}
          data-testid="transcript-panel"
          className="h-[300px] overflow-y-auto rounded-md border bg-muted/30 p-3"
          aria-live="polite"
        >
          {lines.length === 0 ? (
            <p className="text-sm text-muted-foreground">{emptyText(mode, live)}</p>
          ) : (
            <ul className="grid gap-3">
              {lines.map((line, i) => (
                <li
                  key={line.endMs === undefined ? `${line.time}-${i}` : `${line.speaker}-${line.endMs}`}
                  data-end-ms={line.endMs}
                  data-speaker={line.speaker}
                  className="text-sm"
                >
                  <span className="mr-2 font-mono text-xs text-muted-foreground">{line.time}</span>
                  <span className="font-medium">{line.speaker}:</span> {line.text}
                </li>
              ))}
            </ul>
          )}
          {mode === 'recording' && live?.state === 'unavailable' && lines.length > 0 && (
            <p className="mt-3 text-xs text-muted-foreground">The live transcript stopped ({live.reason}); the recording goes on.</p>
          )}
          {mode === 'recording' && live?.state === 'waiting' && lines.length > 0 && (
            <p className="mt-3 text-xs text-muted-foreground">{waitingText(live.position)}</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
