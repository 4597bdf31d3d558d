import { PauseIcon, PlayIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { Button } from '#web/components/ui/button.tsx';
import { formatClock } from '#web/lib/format.ts';

export type PlayerHandle = { seek: (seconds: number) => void };

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

  return (
    <div className="grid gap-2" data-testid="audio-player">
      <div ref={container} aria-label="Waveform" />
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
