import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MicIcon, MicOffIcon, PauseIcon, PlayIcon, SaveIcon, SquareIcon } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { DEFAULT_RECORDING_OPTIONS, UNTITLED_MEETING, type RecordingOptions } from '#shared/contracts/meetings.ts';
import { PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { paths } from '#web/app/paths.ts';
import { getAccessToken } from '#web/lib/auth/access-token.ts';
import { formatClock } from '#web/lib/format.ts';
import { MEETING_DATA_KEY } from '#web/lib/query-keys.ts';
import { CaptureSources } from './capture-sources.tsx';
import { useDemoRecording } from '../demo/demo-recording.ts';
import { LevelMeter } from './level-meter.tsx';
import { calendarEventOptions, createMeeting, createShareLink, linkMeetingToEvent, updateMeeting } from '../api.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { defaultTeam, useMyTeams } from '#web/lib/my-teams.ts';
import { DEFAULT_AUDIO_QUALITY, RecordingOptionsPanel, type AudioQualityChoice } from './recording-options.tsx';
import { TranscriptPanel } from './transcript-panel.tsx';
import { UnfinishedRecordings } from './unfinished-recordings.tsx';
import { ImportTranscript } from './import-transcript.tsx';
import { UploadRecording } from './upload-recording.tsx';
import { useLiveTranscript } from '../live/use-live-transcript.ts';
import { microphoneProblem, useRecorder, type MicrophoneProblem } from '../capture/use-recorder.ts';
import { useTabAudio } from '../capture/use-tab-audio.ts';
import { recordingBitrate } from '../capture/audio-bitrate.ts';
import { describeRecordScreen } from '../recorder-state.ts';

const PROBLEM_TEXT: Record<MicrophoneProblem, string> = {
  denied: 'Parley may not use your microphone. Allow microphone access for this site in your browser’s settings, then press Start Recording again.',
  absent: 'No microphone was found. Connect one and press Start Recording again.',
  unsupported: 'This browser cannot record audio here (recording needs a secure https:// address or localhost).',
  failed: 'The microphone could not be started.',
};

const formatBytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * /record: a real recording (spec §2, §4, §8), saved to the server as it is made. `autoDeleteNotice`:
 * how long recordings are kept, and `audioQuality`: the account's Audio Quality (both the settings
 * feature's, handed in by app/routes; High until the settings have loaded).
 */
export function RecordPage({
  autoDeleteNotice,
  audioQuality = DEFAULT_AUDIO_QUALITY,
}: {
  autoDeleteNotice?: ReactNode;
  audioQuality?: AudioQualityChoice | undefined;
}) {
  const recorder = useRecorder();
  const live = useLiveTranscript();
  const tabAudio = useTabAudio();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  // Record from the dashboard's upcoming meetings: the event's title fills in once, and the meeting is linked to it.
  const [search, setSearch] = useSearchParams();
  const eventId = search.get('event');
  const calendarEvent = useQuery({ ...calendarEventOptions(eventId ?? ''), enabled: Boolean(eventId) });
  const prefilledFrom = useRef<string | null>(null);
  useEffect(() => {
    if (calendarEvent.data && prefilledFrom.current !== calendarEvent.data.id) {
      prefilledFrom.current = calendarEvent.data.id;
      setTitle(calendarEvent.data.title);
    }
  }, [calendarEvent.data]);
  const fromEvent = eventId && calendarEvent.data ? calendarEvent.data : undefined;
  const [options, setOptions] = useState<RecordingOptions>(DEFAULT_RECORDING_OPTIONS);
  const [problem, setProblem] = useState<MicrophoneProblem | null>(null);
  const { demo, dispatch: dispatchDemo } = useDemoRecording();
  const meetingIdRef = useRef<string | null>(null);
  // Auto-Share shares with the person's default team (the one they last chose on /team, else their
  // first) from the moment the meeting is created; with no team it makes a share link on save.
  const { user } = useAuth();
  const teams = useMyTeams();
  const shareTeam = defaultTeam(teams.data ?? [], user?.id);
  const autoShareTeam = options.autoShare ? shareTeam : undefined;
  const sharedWithRef = useRef<string | null>(null);

  const screen = describeRecordScreen({ phase: recorder.phase, demo });
  const { recording, paused } = screen;
  const seconds = demo ? demo.seconds : recorder.seconds;

  const start = async () => {
    setProblem(null);
    try {
      const tab = tabAudio.tab.status === 'shared' && tabAudio.tab.track.readyState === 'live' ? tabAudio.tab.track : undefined;
      await recorder.start({
        title,
        tabAudio: tab,
        audioBitsPerSecond: recordingBitrate(audioQuality.value, options.highQuality),
        getToken: getAccessToken,
        onStarted: (stream, meetingId, channels) => void live.start(stream, meetingId, channels),
        createMeeting: async () => {
          // One channel per source: the job makes each its own speaker, named after it.
          const meeting = await createMeeting({
            title,
            source: 'mic',
            options,
            ...(tab ? { audioSources: ['Microphone', 'Shared tab'] } : {}),
            ...(autoShareTeam ? { teamId: autoShareTeam.id } : {}),
          });
          meetingIdRef.current = meeting.id;
          sharedWithRef.current = autoShareTeam ? autoShareTeam.name : null;
          if (fromEvent) {
            await linkMeetingToEvent(fromEvent.id, meeting.id).then(
              () => undefined,
              (error: unknown) =>
                toast.error('The recording was not linked to its calendar event', { description: error instanceof Error ? error.message : undefined }),
            );
          }
          return meeting.id;
        },
      });
      toast.success('Recording started');
    } catch (error) {
      if (tabAudio.tab.status === 'shared' && tabAudio.tab.track.readyState === 'ended') tabAudio.stop('none');
      if (error instanceof DOMException || (error instanceof Error && 'problem' in error)) {
        setProblem(error instanceof DOMException ? microphoneProblem(error) : 'unsupported');
      } else {
        toast.error(error instanceof Error ? error.message : 'The recording could not be started.');
      }
    }
  };

  const stop = async () => {
    if (demo) {
      dispatchDemo({ type: 'stop' });
    } else {
      live.stop();
      await recorder.stop();
      tabAudio.stop('none');
    }
    toast.success('Recording stopped');
  };

  const togglePause = () => {
    if (demo) {
      dispatchDemo({ type: 'toggle-pause' });
    } else if (recorder.phase === 'paused') {
      recorder.resume();
      live.resume();
    } else {
      recorder.pause();
      live.pause();
    }
    toast(paused ? 'Recording resumed' : 'Recording paused');
  };

  const save = async () => {
    const name = title.trim() || UNTITLED_MEETING;
    if (demo) {
      dispatchDemo({ type: 'discard' });
      setTitle('');
      toast.success('Meeting saved', { description: `${name} (demo recordings are not kept)` });
      return;
    }
    // Saving clears the transcript (spec §9): the live session is closed and its lines go, whether
    // the recording was stopped first or not.
    live.clear();
    if (recorder.phase === 'recording' || recorder.phase === 'paused') {
      await recorder.stop();
      tabAudio.stop('none');
    }
    const id = meetingIdRef.current;
    try {
      if (id) await updateMeeting(id, { title: name });
      toast.success('Meeting saved', { description: name });
      if (id && options.autoShare) {
        const team = sharedWithRef.current;
        if (team) toast.success(`Shared with ${team}`, { description: 'Its members can read, play and export it.' });
        else void autoShare(id);
      }
      // The upload carries on in the background; the meeting appears in history as it lands.
      void recorder.uploadFinished().then(
        () => queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY }),
        () => undefined,
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The meeting could not be saved.');
      return;
    }
    meetingIdRef.current = null;
    sharedWithRef.current = null;
    recorder.reset();
    setTitle('');
    // The next recording is not this event's.
    if (eventId) setSearch({}, { replace: true });
    // The meeting's page, where the upload's last bytes, then the transcription's progress and its
    // transcript with speakers arrive live (as after an upload or an import).
    if (id) void navigate(paths.meeting.href(id));
  };

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Record Meeting" description="Record in your browser. Audio is saved to the server while you record." />
      {autoDeleteNotice}
      <UnfinishedRecordings exclude={recorder.recording?.id} onUploaded={() => void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY })} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <Card>
            <CardContent className="grid gap-6">
              {fromEvent && (
                <p className="text-sm text-muted-foreground">
                  From your calendar: {fromEvent.title}
                  {fromEvent.attendees.length > 0 ? ` · with ${fromEvent.attendees.map((a) => a.name).join(', ')}` : ''}
                </p>
              )}
              {eventId && calendarEvent.isError && (
                <p className="text-sm text-destructive">This calendar event could not be found: it may have been moved or removed. You can still record.</p>
              )}
              <div className="grid gap-2">
                <Label htmlFor="meeting-title">Meeting title</Label>
                <Input id="meeting-title" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Weekly team sync" maxLength={200} />
              </div>
              {!demo && (
                <CaptureSources
                  tab={tabAudio.tab}
                  recording={recording}
                  busy={recorder.phase === 'starting'}
                  tabLevel={recorder.tabLevel}
                  onAddTab={() => void tabAudio.add()}
                  onStopTab={() => tabAudio.stop(recording ? 'ended' : 'none')}
                />
              )}
              <div className="flex flex-col items-center gap-3 py-2">
                <p className="font-mono text-5xl tabular-nums" aria-label="Recording time" role="timer">
                  {formatClock(seconds)}
                </p>
                <LevelMeter level={recorder.level} active={recorder.phase === 'recording'} />
                <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="recording-status" data-bytes-recorded={recorder.bytesRecorded}>
                  {screen.status}
                  {!demo &&
                    recorder.bytesRecorded > 0 &&
                    ` · saved on the server: ${formatBytes(recorder.bytesAcked)} of ${formatBytes(recorder.bytesRecorded)}`}
                </p>
                {recorder.uploadError && (
                  <p role="alert" className="max-w-lg text-center text-sm text-destructive">
                    {recorder.uploadError}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap justify-center gap-2">
                {recording ? (
                  <Button variant="destructive" size="lg" onClick={() => void stop()}>
                    <SquareIcon /> Stop Recording
                  </Button>
                ) : (
                  <Button size="lg" onClick={() => void start()} disabled={!screen.canStart}>
                    <MicIcon /> Start Recording
                  </Button>
                )}
                <Button variant="outline" size="lg" onClick={togglePause} disabled={!recording}>
                  {paused ? <PlayIcon /> : <PauseIcon />} {paused ? 'Resume' : 'Pause'}
                </Button>
                <Button variant="secondary" size="lg" onClick={() => void save()} disabled={!screen.canSave}>
                  <SaveIcon /> Save Meeting
                </Button>
              </div>
              {problem && (
                <div role="alert" className="flex flex-col items-center gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-4 text-center text-sm">
                  <MicOffIcon className="size-6 text-destructive" aria-hidden="true" />
                  <p>{PROBLEM_TEXT[problem]}</p>
                  <Button
                    variant="outline"
                    onClick={() => {
                      setProblem(null);
                      dispatchDemo({ type: 'start' });
                      toast.success('Recording started', { description: 'Demo recording' });
                    }}
                  >
                    Try a demo recording
                  </Button>
                </div>
              )}
            </CardContent>
          </Card>
          <TranscriptPanel
            lines={
              demo?.lines ?? live.lines.map((line) => ({ time: formatClock(line.startMs / 1000), speaker: line.speaker, text: line.text, endMs: line.endMs }))
            }
            mode={screen.panel}
            live={demo ? null : live.status}
          />
        </div>
        <div className="grid content-start gap-6">
          <RecordingOptionsPanel value={options} onChange={setOptions} disabled={recording} autoShareTeam={shareTeam?.name} audioQuality={audioQuality} />
          <UploadRecording
            title={title}
            options={options}
            teamId={autoShareTeam?.id}
            disabled={recording}
            onUploaded={() => void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY })}
          />
          <ImportTranscript
            title={title}
            teamId={autoShareTeam?.id}
            disabled={recording}
            onImported={() => void queryClient.invalidateQueries({ queryKey: MEETING_DATA_KEY })}
          />
        </div>
      </div>
    </div>
  );
}

async function autoShare(meetingId: string): Promise<void> {
  try {
    const link = await createShareLink(meetingId);
    await navigator.clipboard?.writeText(link.url).catch(() => undefined);
    toast.success('Share link created', { description: link.url, duration: 15_000 });
  } catch (error) {
    toast.error(error instanceof Error ? `Auto-share failed: ${error.message}` : 'Auto-share failed.');
  }
}
