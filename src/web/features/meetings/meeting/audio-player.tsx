import { PauseIcon, PlayIcon } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { Button } from '#web/components/ui/button.tsx';
import { formatClock } from '#web/lib/format.ts';

export type PlayerHandle = { seek: (seconds: number) => void };

/** How far the arrow keys (and Page Up / Page Down) move the waveform's position, in seconds. */
const ARROW_STEP_S = 5;
const PAGE_STEP_S = 30;

/**
 * The meeting's audio with its waveform (wavesurfer.js). The audio arrives as a Blob because the
 * API needs the bearer token, which an <audio src> cannot send.
 */
export function AudioPlayer({ audio, onTime, onReady }: { audio: Blob; onTime: (seconds: number) => void; onReady: (handle: PlayerHandle) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const surferRef = useRef<WaveSurfer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const surfer = WaveSurfer.create({
      container: container.current,
      height: 64,
      waveColor: 'oklch(0.8 0.05 277)',
      progressColor: 'oklch(0.511 0.262 276.966)',
      cursorColor: 'oklch(0.511 0.262 276.966)',
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      normalize: true,
    });
    surfer.on('ready', (d) => setDuration(d));
    surfer.on('timeupdate', (t) => {
      setTime(t);
      onTime(t);
    });
    surfer.on('play', () => setPlaying(true));
    surfer.on('pause', () => setPlaying(false));
    surfer.on('error', () => setError('This recording could not be played in this browser.'));
    surferRef.current = surfer;
    surfer.loadBlob(audio).catch(() => undefined);
    onReady({
      seek: (seconds) => {
        surfer.setTime(seconds);
        void surfer.play();
      },
    });
    return () => {
      surferRef.current = null;
      surfer.destroy();
    };
  }, [audio, onTime, onReady]);

  /**
   * The waveform is a slider over the recording, so a keyboard reaches every moment a click does:
   * arrows ±5 s, Page Up/Down ±30 s, Home and End, Space or Enter to play and pause.
   */
  const onWaveformKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const surfer = surferRef.current;
    if (!surfer) return;
    const now = surfer.getCurrentTime();
    const end = surfer.getDuration();
    const moves: Record<string, number> = {
      ArrowRight: now + ARROW_STEP_S,
      ArrowUp: now + ARROW_STEP_S,
      ArrowLeft: now - ARROW_STEP_S,
      ArrowDown: now - ARROW_STEP_S,
      PageUp: now + PAGE_STEP_S,
      PageDown: now - PAGE_STEP_S,
      Home: 0,
      End: end,
    };
    if (event.key in moves) {
      surfer.setTime(Math.min(end, Math.max(0, moves[event.key]!)));
    } else if (event.key === ' ' || event.key === 'Enter') {
      void surfer.playPause();
    } else {
      return;
    }
    event.preventDefault();
  };

  return (
    <div className="grid gap-2" data-testid="audio-player">
      <div
        ref={container}
        role="slider"
        tabIndex={0}
        aria-label="Waveform"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(time)}
        aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
        onKeyDown={onWaveformKey}
        className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      />
      <div className="flex items-center gap-3">
        <Button size="sm" variant="outline" aria-label={playing ? 'Pause' : 'Play'} onClick={() => void surferRef.current?.playPause()}>
          {playing ? <PauseIcon /> : <PlayIcon />}
        </Button>
        <span className="font-mono text-sm tabular-nums text-muted-foreground">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        {error && <span className="text-sm text-destructive">{error}</span>}
      </div>
    </div>
  );
}
