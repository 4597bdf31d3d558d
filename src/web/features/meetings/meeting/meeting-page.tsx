import { ArrowLeftIcon, PencilIcon, UsersIcon } from 'lucide-react';
import { useCallback, useRef, useState, type ComponentType } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { paths } from '#web/app/paths.ts';
import { ApiError } from '#web/lib/api-error.ts';
import { useMyTeams } from '#web/lib/my-teams.ts';
import { DeleteMeetingDialog } from '../components/delete-meeting-dialog.tsx';
import { MeetingActionsMenu } from '../components/meeting-actions-menu.tsx';
import { ProcessingStatus } from '../components/processing-status.tsx';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import type { ShareDialogComponent } from '../components/share-dialog-slot.ts';
import { ShareWithTeamDialog } from '../components/share-with-team-dialog.tsx';
import { ShareToSlackDialog } from '../components/share-to-slack-dialog.tsx';
import { ScheduleFollowUpDialog } from '../components/schedule-follow-up-dialog.tsx';
import { RecordedFromEvent } from '../components/recorded-from-event.tsx';
import { AudioPlayer, type PlayerHandle } from './audio-player.tsx';
import { fetchAudioLink, useMeeting, useMeetingAudioPeaks, useMeetingEdits, useNotesEdits, useSpeakerNames } from '../api.ts';
import { MeetingView } from '../components/meeting-view.tsx';
import { useLiveNotes } from './use-live-notes.ts';
import { AskBox } from '../ask/ask-box.tsx';

/** /meetings/:id: the recording with its waveform and topics, the transcript that follows it, the notes, and edits. */
export function MeetingPage({
  ShareDialog,
  AutoDeleteNotice,
  BetterTranscriptsNotice,
  VoicesCard,
}: {
  ShareDialog: ShareDialogComponent;
  /** When auto-delete removes this meeting (the settings feature's notice, handed in by app/routes). */
  AutoDeleteNotice?: ComponentType<{ meeting: { createdAt: string; isSample: boolean }; className?: string }>;
  /** Which command gets better transcripts while the server uses its basic engine (the status feature's notice). */
  BetterTranscriptsNotice?: ComponentType<{ meeting: { hasAudio: boolean; isSample: boolean }; className?: string }>;
  /** The meeting's voices: suggestions and naming a speaker after a person for its owner, "This speaker is me" for a teammate (the voice-profiles feature's card). */
  VoicesCard?: ComponentType<{ meeting: MeetingDetail }>;
}) {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  // A link to a moment (`?t=<ms>`, from the tracker or the decision register): the player starts there.
  const momentMs = paths.meeting.momentOf(search);
  const meeting = useMeeting(id);
  const waveform = useMeetingAudioPeaks(id, meeting.data?.hasAudio === true);
  const getAudioLink = useCallback(() => fetchAudioLink(id), [id]);
  const edits = useMeetingEdits(id);
  const speakerNames = useSpeakerNames(meeting.data !== undefined && meeting.data.access !== 'team' && meeting.data.speakers.length > 0);
  const notesEdits = useNotesEdits(id);
  const live = useLiveNotes(meeting.data, meeting.dataUpdatedAt);
  // A teammate's meeting is read-only: the owner alone edits, shares and deletes it (the server refuses the rest anyway).
  const owned = meeting.data?.access !== 'team';
  const sharedTeamId = meeting.data?.teamId ?? null;
  const teams = useMyTeams(owned && sharedTeamId !== null);
  const [currentMs, setCurrentMs] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'share' | 'team' | 'slack' | 'delete' | 'follow-up' | null>(null);
  const player = useRef<PlayerHandle | null>(null);
  const onTime = useCallback((seconds: number) => setCurrentMs(seconds * 1000), []);
  const onReady = useCallback(
    (handle: PlayerHandle) => {
      player.current = handle;
      if (momentMs !== undefined) handle.seek(momentMs / 1000);
    },
    [momentMs],
  );

  if (meeting.isPending) {
    return (
      <div className="mx-auto grid max-w-6xl gap-4">
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-24" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (meeting.isError && meeting.error instanceof ApiError && meeting.error.status === 404 && meeting.data?.access === 'team') {
    // It was readable a moment ago through a team: unshared, or this person left the team. What was
    // on screen goes, rather than stay as if it were still theirs to read.
    return (
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="text-2xl font-semibold">This meeting is no longer shared with you</h1>
        <p className="mt-2 text-muted-foreground">Its owner made it private, or you are no longer in the team it was shared with.</p>
        <Button className="mt-6" asChild>
          <Link to={paths.history.href()}>Back to history</Link>
        </Button>
      </div>
    );
  }
  if (meeting.isError) {
    const missing = meeting.error instanceof ApiError && meeting.error.status === 404;
    return (
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="text-2xl font-semibold">{missing ? 'Meeting not found' : 'This meeting could not be loaded'}</h1>
        <p className="mt-2 text-muted-foreground">{missing ? 'It may have been deleted.' : meeting.error.message}</p>
        <Button className="mt-6" asChild>
          <Link to={paths.history.href()}>Back to history</Link>
        </Button>
      </div>
    );
  }
  const data = live ?? meeting.data;
  const fail = (error: unknown) => toast.error(error instanceof Error ? error.message : 'The change could not be saved.');
  return (
    <div className="mx-auto max-w-6xl">
      {/* On a phone the buttons wrap under the way back, and a long team name is cut short, so the menu stays on screen. */}
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" size="sm" asChild>
          <Link to={paths.history.href()}>
            <ArrowLeftIcon /> Meeting History
          </Link>
        </Button>
        <div className="ml-auto flex max-w-full min-w-0 items-center gap-2">
          {owned && (
            <Button variant="outline" size="sm" className="min-w-0 shrink" onClick={() => setDialog('team')}>
              <UsersIcon aria-hidden="true" />
              <span className="truncate">
                {sharedTeamId === null ? 'Share with team' : `Shared with ${teams.data?.find((t) => t.id === sharedTeamId)?.name ?? 'a team'}`}
              </span>
            </Button>
          )}
          <MeetingActionsMenu
            meeting={data}
            onShare={() => setDialog('share')}
            onShareWithTeam={() => setDialog('team')}
            onShareToSlack={() => setDialog('slack')}
            onScheduleFollowUp={() => setDialog('follow-up')}
            onDelete={() => setDialog('delete')}
          />
        </div>
      </div>
      <ShareToSlackDialog meeting={data} open={dialog === 'slack'} onOpenChange={(open) => setDialog(open ? 'slack' : null)} />
      <ScheduleFollowUpDialog
        meetingId={data.id}
        title={data.title}
        open={dialog === 'follow-up'}
        onOpenChange={(open) => setDialog(open ? 'follow-up' : null)}
      />
      {owned && (
        <>
          {AutoDeleteNotice && <AutoDeleteNotice meeting={data} className="mb-4" />}
          {BetterTranscriptsNotice && <BetterTranscriptsNotice meeting={data} className="mb-4" />}
          <ShareDialog meetingId={data.id} title={data.title} open={dialog === 'share'} onOpenChange={(open) => setDialog(open ? 'share' : null)} />
          <ShareWithTeamDialog meeting={data} open={dialog === 'team'} onOpenChange={(open) => setDialog(open ? 'team' : null)} />
          <DeleteMeetingDialog meetingId={data.id} title={data.title} open={dialog === 'delete'} onOpenChange={(open) => setDialog(open ? 'delete' : null)} />
        </>
      )}
      <RecordedFromEvent meetingId={data.id} className="mb-4" />
      <AskBox
        meetingId={data.id}
        // A moment of this meeting plays here: the player seeks instead of the page reloading itself.
        onMoment={(citation) => {
          if (citation.meetingId !== data.id || !player.current) return false;
          player.current.seek(citation.startMs / 1000);
          return true;
        }}
      />
      <MeetingView
        meeting={data}
        speakersExtra={VoicesCard ? <VoicesCard meeting={data} /> : undefined}
        title={
          owned ? (
            <EditableTitle title={data.title} onSave={(title) => edits.rename.mutateAsync(title).then(() => toast.success('Meeting renamed'), fail)} />
          ) : undefined
        }
        statusNotice={<ProcessingStatus meeting={data} canRetry={owned} />}
        currentMs={currentMs}
        momentMs={momentMs}
        onSeek={data.hasAudio ? (ms) => player.current?.seek(ms / 1000) : undefined}
        player={
          data.hasAudio ? (
            // Plays at once; the waveform is drawn when the server has worked it out.
            <AudioPlayer
              key={data.id}
              getLink={getAudioLink}
              waveform={waveform.isError ? null : waveform.data}
              fallbackDurationSeconds={data.durationSeconds}
              onTime={onTime}
              onReady={onReady}
            />
          ) : undefined
        }
        editing={
          owned
            ? {
                editLine: (segmentId, text) => edits.editLine.mutateAsync({ segmentId, text }).catch(fail),
                renameSpeaker: (speakerId, displayName) => edits.renameSpeaker.mutateAsync({ speakerId, displayName }).catch(fail),
                mergeSpeaker: (speakerId, intoSpeakerId) =>
                  edits.mergeSpeaker.mutateAsync({ speakerId, intoSpeakerId }).then(() => toast.success('Speakers merged'), fail),
                moveLines: (segmentIds, speakerId) => {
                  // What Undo puts back: each line's speaker before, and the speaker made for them (if any).
                  const before = data.segments.filter((s) => segmentIds.includes(s.id) && s.speakerId !== null);
                  const known = new Set(data.speakers.map((s) => s.id));
                  return edits.moveLines.mutateAsync({ segmentIds, speakerId }).then((answer) => {
                    const added = speakerId === 'new' ? answer.speakers.find((s) => !known.has(s.id))?.id : undefined;
                    // One request: the lines and the new speaker come back together, as one edit of the transcript.
                    const undo = () =>
                      edits.restoreLines.mutateAsync({
                        lines: before.map((s) => ({ segmentId: s.id, speakerId: s.speakerId! })),
                        ...(added && { removeSpeakerId: added }),
                      });
                    toast.success(segmentIds.length === 1 ? 'Line moved' : `${segmentIds.length} lines moved`, {
                      // Lines that had no speaker cannot be given "none" back: nothing to undo then.
                      ...(before.length > 0 && { action: { label: 'Undo', onClick: () => void undo().then(() => toast.success('Move undone'), fail) } }),
                    });
                  }, fail);
                },
                splitLine: (segmentId, at) => {
                  const known = new Set(data.segments.map((s) => s.id));
                  return edits.splitLine.mutateAsync({ segmentId, at }).then((answer) => {
                    const part = answer.segments.find((s) => !known.has(s.id));
                    toast.success('Line split', {
                      ...(part && {
                        action: {
                          label: 'Undo',
                          onClick: () =>
                            void edits.joinLines.mutateAsync({ segmentId, nextSegmentId: part.id }).then(() => toast.success('Split undone'), fail),
                        },
                      }),
                    });
                  }, fail);
                },
                undoCorrection: (correctionId) => edits.undoCorrection.mutateAsync(correctionId).then(() => toast.success('Correction undone'), fail),
                speakerNames: speakerNames.data,
              }
            : undefined
        }
        notesActions={
          owned
            ? {
                regenerate: () => notesEdits.regenerate.mutate(),
                isRegenerating: notesEdits.regenerate.isPending,
                // The mutation toasts a failure itself; the item only needs to know whether to close its editor.
                updateItem: (itemId, body) =>
                  notesEdits.updateItem.mutateAsync({ itemId, body }).then(
                    () => true,
                    () => false,
                  ),
              }
            : undefined
        }
      />
    </div>
  );
}

function EditableTitle({ title, onSave }: { title: string; onSave: (title: string) => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  if (!editing) {
    return (
      <div className="flex items-center gap-2">
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
        <Button
          size="icon"
          variant="ghost"
          aria-label="Rename meeting"
          onClick={() => {
            setDraft(title);
            setEditing(true);
          }}
        >
          <PencilIcon />
        </Button>
      </div>
    );
  }
  return (
    <form
      className="flex max-w-xl gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void onSave(draft).then(() => setEditing(false));
      }}
    >
      <Input
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
        aria-label="Meeting title"
        maxLength={200}
        autoFocus
      />
      <Button type="submit">Save</Button>
      <Button type="button" variant="outline" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
