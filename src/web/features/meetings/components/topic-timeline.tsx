import type { Insight } from '#shared/contracts/notes.ts';
import { formatClock } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';

const SPAN_COLOURS = [
  'bg-primary/15 hover:bg-primary/25',
  'bg-amber-100 hover:bg-amber-200 dark:bg-amber-950/40',
  'bg-emerald-100 hover:bg-emerald-200 dark:bg-emerald-950/40',
];

/**
 * The meeting's topics as spans on its time line, drawn under the waveform on the same scale (0 to
 * the meeting's length): each labelled, and a click jumps to where it starts.
 */
export function TopicTimeline({
  topics,
  durationMs,
  currentMs,
  onSelect,
}: {
  topics: Insight[];
  durationMs: number;
  currentMs: number | null;
  onSelect: (topic: Insight) => void;
}) {
  if (topics.length === 0 || durationMs <= 0) return null;
  const percent = (ms: number) => `${Math.min(100, Math.max(0, (ms / durationMs) * 100))}%`;
  return (
    <div className="relative h-8 rounded-md bg-muted/60">
      <ol aria-label="Topic timeline">
        {topics.map((topic, i) => {
          const endMs = Math.max(topic.endMs ?? topic.startMs, topic.startMs);
          const span = `${formatClock(topic.startMs / 1000)}–${formatClock(endMs / 1000)}`;
          return (
            <li key={topic.id} className="absolute inset-y-0" style={{ left: percent(topic.startMs), width: percent(endMs - topic.startMs) }}>
              <button
                type="button"
                title={`${topic.text} (${span})`}
                aria-label={`Topic ${topic.text}, ${span}`}
                onClick={() => onSelect(topic)}
                className={cn(
                  'size-full min-w-1 truncate rounded-sm border border-background px-1.5 text-left text-xs font-medium transition-colors',
                  SPAN_COLOURS[i % SPAN_COLOURS.length],
                )}
              >
                {topic.text}
              </button>
            </li>
          );
        })}
      </ol>
      {currentMs !== null && (
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 bg-primary" style={{ left: percent(currentMs) }} />
      )}
    </div>
  );
}
