import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { TranscriptLine } from './demo-transcript.ts';

/** The live transcription panel (300px, spec §9). */
export function TranscriptPanel({ lines, mode }: { lines: TranscriptLine[]; mode: 'idle' | 'recording' | 'demo' | 'saved' }) {
  const empty =
    mode === 'recording'
      ? 'Recording. The transcript is pending: it is made when you stop, and appears with the meeting in your history.'
      : mode === 'saved'
        ? 'Saved. The transcript is being made; find the meeting in your history.'
        : 'Press Start Recording. The transcript of your meeting appears with the meeting once it is saved.';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Live transcription</CardTitle>
        <CardDescription>{mode === 'demo' ? 'Demo recording — simulated lines' : 'Speakers and timestamps'}</CardDescription>
      </CardHeader>
      <CardContent>
        <div data-testid="transcript-panel" className="h-[300px] overflow-y-auto rounded-md border bg-muted/30 p-3" aria-live="polite">
          {lines.length === 0 ? (
            <p className="text-sm text-muted-foreground">{empty}</p>
          ) : (
            <ul className="grid gap-3">
              {lines.map((line, i) => (
                <li key={`${line.time}-${i}`} className="text-sm">
                  <span className="mr-2 font-mono text-xs text-muted-foreground">{line.time}</span>
                  <span className="font-medium">{line.speaker}:</span> {line.text}
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
