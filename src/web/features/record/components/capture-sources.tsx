import { MicIcon, MonitorSpeakerIcon, XIcon } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { LevelMeter } from './level-meter.tsx';
import { canShareTabAudio, type TabAudio } from '../capture/use-tab-audio.ts';

/**
 * "What is recorded" on /record: the microphone, and optionally a shared tab's audio (an online
 * call) as a second source, each its own speaker in the transcript. Tab audio is chosen before
 * recording starts; during a recording it can be stopped and the microphone goes on.
 */
export function CaptureSources(props: { tab: TabAudio; recording: boolean; busy: boolean; tabLevel: number; onAddTab: () => void; onStopTab: () => void }) {
  const { tab, recording } = props;
  const tabInRecording = recording && tab.status === 'shared';
  return (
    <section aria-labelledby="capture-sources-title" className="grid gap-3 rounded-md border p-4">
      <h2 id="capture-sources-title" className="text-sm font-medium">
        What is recorded
      </h2>
      <div className="flex items-center gap-3">
        <MicIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="grid flex-1 gap-0.5">
          <p className="text-sm">Your microphone</p>
          <p className="text-xs text-muted-foreground">Your voice and anyone in the room with you.</p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3" data-testid="tab-audio">
        <MonitorSpeakerIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="grid min-w-48 flex-1 gap-0.5">
          {tab.status === 'shared' ? (
            <>
              <p className="text-sm">Sound of {tab.surface}</p>
              <p className="text-xs text-muted-foreground">
                {tabInRecording ? 'Recorded as its own speaker, “Shared tab”.' : 'Will be recorded next to your microphone as its own speaker, “Shared tab”.'}{' '}
                Only the sound is kept, never the picture.
              </p>
            </>
          ) : tab.status === 'ended' ? (
            <>
              <p className="text-sm">Tab audio stopped</p>
              <p className="text-xs text-muted-foreground">
                {recording ? 'The microphone keeps recording.' : 'Add it again before you start, if you need it.'}
              </p>
            </>
          ) : (
            <>
              <p className="text-sm">A tab’s audio (optional)</p>
              <p className="text-xs text-muted-foreground">
                {canShareTabAudio()
                  ? 'For online calls: share the call’s browser tab and the other people are recorded too, as their own speaker. Choose it before you start.'
                  : 'This browser cannot share a tab’s audio; desktop Chrome and Edge can.'}
              </p>
            </>
          )}
        </div>
        {tabInRecording && <LevelMeter level={props.tabLevel} active label="Shared tab level" />}
        {tab.status === 'shared' ? (
          <Button variant="outline" size="sm" onClick={props.onStopTab}>
            <XIcon /> {recording ? 'Stop sharing' : 'Remove'}
          </Button>
        ) : (
          !recording && (
            <Button variant="outline" size="sm" onClick={props.onAddTab} disabled={props.busy || !canShareTabAudio()}>
              <MonitorSpeakerIcon /> Add tab audio
            </Button>
          )
        )}
      </div>
    </section>
  );
}
