import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '#web/lib/toast.ts';

/**
 * A shared tab's audio, the recording's second source (an online call's other voices):
 * none yet, shared (its track), or ended (the person stopped sharing; the microphone goes on).
 */
export type TabAudio = { status: 'none' } | { status: 'shared'; track: MediaStreamTrack; surface: string } | { status: 'ended' };

/** What was shared, in the person's words. */
const SURFACES: Record<string, string> = { browser: 'a browser tab', window: 'a window', monitor: 'your screen' };

export const canShareTabAudio = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';

/** "Add tab audio" on /record: asks the browser for a tab with its sound (getDisplayMedia). */
export function useTabAudio() {
  const [tab, setTab] = useState<TabAudio>({ status: 'none' });
  const streamRef = useRef<MediaStream | null>(null);

  const release = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
  }, []);
  useEffect(() => release, [release]);

  /** Opens the browser's picker; must run in the click that asked for it. */
  const add = useCallback(async () => {
    let display: MediaStream;
    try {
      display = await navigator.mediaDevices.getDisplayMedia({
        // Browsers only share audio along with a picture; the picture is dropped at once.
        video: { displaySurface: 'browser' },
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        // Chrome: offer other tabs (not this one, which would only hear itself) and their sound.
        ...({ selfBrowserSurface: 'exclude', systemAudio: 'include', surfaceSwitching: 'include' } as object),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotAllowedError')
        toast('No tab was shared', { description: 'Only your microphone will be recorded.' });
      else toast.error('The tab’s audio could not be shared', { description: 'Only your microphone will be recorded.' });
      return;
    }
    const [audio] = display.getAudioTracks();
    const surface = SURFACES[display.getVideoTracks()[0]?.getSettings().displaySurface ?? ''] ?? 'a tab';
    display.getVideoTracks().forEach((track) => track.stop());
    if (!audio) {
      display.getTracks().forEach((track) => track.stop());
      toast.warning('No audio was shared', {
        description: 'Choose a tab and turn on “Share tab audio” in the browser’s dialog. Only your microphone will be recorded.',
      });
      return;
    }
    release();
    streamRef.current = display;
    // The person pressed the browser's "Stop sharing": the recording keeps the microphone.
    audio.addEventListener('ended', () => {
      if (streamRef.current !== display) return;
      setTab({ status: 'ended' });
      toast('Tab audio stopped', { description: 'The microphone keeps recording.' });
    });
    setTab({ status: 'shared', track: audio, surface });
  }, [release]);

  /** Stops sharing: before a recording it is as if never added; during one, the microphone goes on. */
  const stop = useCallback(
    (next: 'none' | 'ended') => {
      release();
      setTab({ status: next });
    },
    [release],
  );

  return { tab, add, stop };
}
