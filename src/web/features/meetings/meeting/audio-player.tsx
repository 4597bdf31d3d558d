import { PauseIcon, PlayIcon, RotateCcwIcon, RotateCwIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import type { AudioLink, AudioPeaks } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { formatClock } from '#web/lib/format.ts';
import { playerShortcut } from './player-keys.ts';

export type PlayerHandle = { seek: (seconds: number) => void };

export const PLAYBACK_SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const SKIP_SECONDS = 15;

/** A link is asked for again this long before it runs out, so a seek never meets an expired one. */
const LINK_MARGIN_MS = 30_000;
const UNPLAYABLE = 'This recording could not be played in this browser.';

/**
 * The meeting's audio with its waveform (wavesurfer.js over an <audio> element). The element streams
 * the recording with Range requests through a short-lived link (`getLink`: it cannot send the bearer
 * token), so playing starts before the file is fetched and a seek fetches from there. The waveform
 * comes from the server (`waveform`, drawn once it arrives), since drawing it here would mean
 * downloading the whole file first. Speed, ±15 s and, while focus is not in a text field, the
 * keyboard (space plays or pauses, ← and → skip) control it.
 */
export function AudioPlayer({
  getLink,
  waveform,
  fallbackDurationSeconds,
  onTime,
  onReady,
}: {
  getLink: () => Promise<AudioLink>;
  /** undefined while it is being worked out; null when it could not be (the player then draws a flat line). */
  waveform: AudioPeaks | null | undefined;
  /** The meeting's stated length, until the waveform says how long the recording really is. */
  fallbackDurationSeconds: number;
  onTime: (seconds: number) => void;
  onReady: (handle: PlayerHandle) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const mediaHost = useRef<HTMLDivElement>(null);
  const surferRef = useRef<WaveSurfer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  // The media's own length, where it states one, until the waveform gives the decoded length.
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const duration = waveform?.durationSeconds ?? mediaDuration ?? fallbackDurationSeconds;
  const [speed, setSpeed] = useState(1);
  const [error, setError] = useState<string | null>(null);
  // What the latest effect run needs without restarting the player: the waveform as it is now.
  const waveformRef = useRef(waveform);
  const getLinkRef = useRef(getLink);
  const fallbackRef = useRef(fallbackDurationSeconds);
  useEffect(() => {
    waveformRef.current = waveform;
    getLinkRef.current = getLink;
    fallbackRef.current = fallbackDurationSeconds;
  });
  const controls = useRef<{ playPause: () => void; skip: (by: number) => void } | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const media = document.createElement('audio');
    // Only the header until the person plays: the rest streams as it is needed.
    media.preload = 'metadata';
    // In the page (without controls it shows nothing), where assistive tools and tests can find it.
    mediaHost.current?.append(media);
    const surfer = WaveSurfer.create({
      container: container.current,
      media,
      height: 64,
      waveColor: 'oklch(0.8 0.05 277)',
      progressColor: 'oklch(0.511 0.262 276.966)',
      cursorColor: 'oklch(0.511 0.262 276.966)',
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      normalize: true,
    });
    surferRef.current = surfer;
    let link: AudioLink | null = null;
    let disposed = false;
    let renewing: Promise<void> | null = null;
    let failedRenewals = 0;
    let renewedAt = 0;
    let lastTime = 0;
    let wasPlaying = false;
    const peaksNow = (): { peaks: number[][]; duration: number } => {
      const known = waveformRef.current;
      // Without the waveform yet, one silent peak: given any peaks, wavesurfer never downloads the file to draw them.
      return known ? { peaks: [known.peaks], duration: known.durationSeconds } : { peaks: [[0]], duration: fallbackRef.current };
    };
    const load = async (resume: boolean) => {
      link = await getLinkRef.current();
      if (disposed) return;
      const { peaks, duration: seconds } = peaksNow();
      await surfer.load(link.url, peaks, seconds || undefined);
      if (disposed) return;
      // Where playback was, including skips pressed while the new link was on its way.
      if (lastTime > 0) seekTo(lastTime);
      if (resume) await surfer.play();
    };
    // On the element itself: wavesurfer's setTime keeps a seek asked for while the previous one is
    // still fetching as "pending" and then drops it, so quick presses of → would be lost.
    const seekTo = (seconds: number) => {
      const end = surfer.getDuration();
      const target = Math.max(0, Number.isFinite(end) && end > 0 ? Math.min(seconds, end) : seconds);
      lastTime = target;
      media.currentTime = target;
      setTime(target);
    };
    // While a new link loads, the element is back at 0: count from where playback was.
    const skip = (by: number) => seekTo((renewing ? lastTime : media.currentTime) + by);
    /** A new link (the old one ran out, or the stream broke), carrying on where playback was. */
    const renew = (resume: boolean) => {
      renewedAt = lastTime;
      renewing ??= load(resume)
        .catch(() => {
          if (!disposed) setError(UNPLAYABLE);
        })
        .finally(() => {
          renewing = null;
        });
      return renewing;
    };
    const linkRunningOut = () => link !== null && Date.parse(link.expiresAt) - Date.now() < LINK_MARGIN_MS;

    surfer.on('ready', (seconds) => {
      if (Number.isFinite(seconds) && seconds > 0) setMediaDuration(seconds);
    });
    surfer.on('timeupdate', (seconds) => {
      // A new source starts the element at 0 (and says so): not where the person is.
      if (renewing) return;
      lastTime = seconds;
      // Playing on past where a new link was needed: that link works.
      if (seconds > renewedAt + 1) failedRenewals = 0;
      setTime(seconds);
      onTime(seconds);
    });
    surfer.on('play', () => {
      wasPlaying = true;
      setPlaying(true);
    });
    surfer.on('pause', () => {
      wasPlaying = false;
      setPlaying(false);
    });
    media.addEventListener('error', () => {
      // The element's requests answer 403 once the link runs out (a long pause): a new link, carrying
      // on where it was; twice in a row without playing on in between, and the recording is unplayable.
      if (disposed) return;
      failedRenewals += 1;
      if (failedRenewals > 2) {
        setError(UNPLAYABLE);
        return;
      }
      void renew(wasPlaying);
    });

    const loaded = load(false).catch(() => {
      if (!disposed) setError(UNPLAYABLE);
    });
    onReady({
      // A seek before the first link arrived (a link to a moment) waits for it; one after the link ran out, for a new one.
      seek: (seconds) => {
        void (linkRunningOut() ? renew(false) : loaded).then(() => {
          if (disposed) return;
          seekTo(seconds);
          void surfer.play();
        });
      },
    });
    const playPause = () => {
      if (surfer.isPlaying()) surfer.pause();
      else if (linkRunningOut()) void renew(true);
      else void surfer.play();
    };
    const onKey = (event: KeyboardEvent) => {
      const action = playerShortcut(event);
      if (!action) return;
      event.preventDefault();
      if (action === 'toggle') playPause();
      else skip(action === 'back' ? -SKIP_SECONDS : SKIP_SECONDS);
    };
    document.addEventListener('keydown', onKey);
    controls.current = { playPause, skip };
    return () => {
      disposed = true;
      document.removeEventListener('keydown', onKey);
      surferRef.current = null;
      controls.current = null;
      surfer.destroy();
      media.remove();
    };
  }, [onTime, onReady]);

  // The waveform and the true length, drawn over the playing audio as soon as the server has them.
  useEffect(() => {
    const surfer = surferRef.current;
    if (!waveform || !surfer) return;
    surfer.setOptions({ peaks: [waveform.peaks], duration: waveform.durationSeconds });
    // setOptions keeps the peaks but redraws what was drawn before (the flat line of a player that
    // loaded before the waveform came): draw the new ones.
    const decoded = surfer.getDecodedData();
    if (decoded) void surfer.getRenderer().render(decoded);
  }, [waveform]);

  const changeSpeed = (rate: number) => {
    setSpeed(rate);
    // Keeps voices at their pitch when faster or slower.
    surferRef.current?.setPlaybackRate(rate, true);
  };

  return (
    <div className="grid gap-2" data-testid="audio-player">
      <div
        ref={container}
        role="slider"
        tabIndex={0}
        aria-label="Playback position"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(time)}
        aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
        className="rounded-md focus-visible:outline-2 focus-visible:outline-ring"
      />
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          aria-label={`Back ${SKIP_SECONDS} seconds`}
          aria-keyshortcuts="ArrowLeft"
          onClick={() => controls.current?.skip(-SKIP_SECONDS)}
        >
          <RotateCcwIcon /> {SKIP_SECONDS}
        </Button>
        <Button size="sm" variant="outline" aria-label={playing ? 'Pause' : 'Play'} aria-keyshortcuts="Space" onClick={() => controls.current?.playPause()}>
          {playing ? <PauseIcon /> : <PlayIcon />}
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-label={`Forward ${SKIP_SECONDS} seconds`}
          aria-keyshortcuts="ArrowRight"
          onClick={() => controls.current?.skip(SKIP_SECONDS)}
        >
          {SKIP_SECONDS} <RotateCwIcon />
        </Button>
        <span className="font-mono text-sm tabular-nums text-muted-foreground" data-testid="player-time">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        <label className="ml-auto flex items-center gap-2 text-sm text-muted-foreground">
          Speed
          <select
            className="h-8 rounded-md border bg-background px-2 text-sm text-foreground"
            aria-label="Playback speed"
            value={speed}
            onChange={(event) => changeSpeed(Number(event.target.value))}
          >
            {PLAYBACK_SPEEDS.map((rate) => (
              <option key={rate} value={rate}>
                {rate}×
              </option>
            ))}
          </select>
        </label>
        {error && <span className="text-sm text-destructive">{error}</span>}
      </div>
      <div ref={mediaHost} hidden />
      <p className="sr-only">Keyboard: space plays or pauses, the left and right arrows skip {SKIP_SECONDS} seconds.</p>
    </div>
  );
}
