import { Link } from 'react-router';
import type { MyVoiceResponse, VoicePath } from '#shared/contracts/voice-profiles.ts';
import { paths } from '#web/app/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { formatDate } from '#web/lib/format.ts';
import { useMyTeams } from '#web/lib/my-teams.ts';
import { toast } from '#web/lib/toast.ts';
import { useAnswerVoiceRequest, useDeleteVoiceProfile, useMyVoice, useSetVoiceTeam } from '../api.ts';

const fail = (error: unknown) => toast.error(error instanceof Error ? error.message : 'The change could not be saved.');

/** Which description of voices this installation uses, as a person should read it. */
export function voicePathText(path: VoicePath): string {
  if (path.kind === 'sherpa-onnx') return `Voices are described by the speaker embedding model ${path.model ?? 'of sherpa-onnx'} (sherpa-onnx).`;
  return 'Voices are described by Parley’s built-in voice features (no speaker embedding model is installed), which tell voices apart less surely than a model: a voice is named only when it is clearly close to a profile, and asked about when it is nearly so.';
}

/**
 * Settings › Privacy: the person's voice profile (the meetings it came from, the team that may use
 * it, Delete), the requests of teammates to keep one, and how voices are described here.
 */
export function VoiceProfileCard() {
  const voice = useMyVoice();
  const answer = useAnswerVoiceRequest();
  const setTeam = useSetVoiceTeam();
  const remove = useDeleteVoiceProfile();
  const teams = useMyTeams();
  const data: MyVoiceResponse | undefined = voice.data;
  return (
    <Card id="voice-profile" role="region" aria-labelledby="voice-profile-title">
      <CardHeader>
        <CardTitle id="voice-profile-title">Voice profile</CardTitle>
        <CardDescription>
          Numbers that describe your voice, made from your turns in a meeting — never the recording. Parley uses them to name you in your own meetings and in
          those of the one team you choose. Nothing is kept without your consent.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {voice.isPending && <p className="text-muted-foreground">Loading…</p>}
        {voice.isError && <p role="alert">Your voice profile could not be loaded: {voice.error.message}</p>}
        {data && (
          <>
            {data.requests.map((request) => (
              <div key={request.id} role="group" aria-label={`Request from ${request.requestedBy.name}`} className="grid gap-2 rounded-md border p-3">
                <p>
                  {request.requestedBy.name} named a speaker in “{request.meetingTitle}” after you and asks to keep a voice profile of you
                  {request.team ? `, used in the meetings of ${request.team.name}` : ''}.
                </p>
                <div className="flex gap-2">
                  <Button size="sm" disabled={answer.isPending} onClick={() => answer.mutate({ id: request.id, accept: true }, { onError: fail })}>
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={answer.isPending}
                    onClick={() => answer.mutate({ id: request.id, accept: false }, { onError: fail })}
                  >
                    Decline
                  </Button>
                </div>
              </div>
            ))}
            {data.learning.length > 0 && (
              <ul className="grid gap-1" aria-label="Voices being learned">
                {data.learning.map((item) =>
                  item.status === 'pending' ? (
                    <li key={item.id} role="status">
                      Learning your voice from “{item.meetingTitle}”…
                    </li>
                  ) : (
                    <li key={item.id} role="alert">
                      {item.error ?? 'Could not learn this voice.'} (from “{item.meetingTitle}”)
                    </li>
                  ),
                )}
              </ul>
            )}
            {data.profile ? (
              <>
                <div className="grid gap-2">
                  <label htmlFor="voice-profile-team" className="font-medium">
                    Used in
                  </label>
                  <select
                    id="voice-profile-team"
                    className="h-9 rounded-md border bg-transparent px-3"
                    value={data.profile.team?.id ?? ''}
                    disabled={setTeam.isPending}
                    onChange={(event) => setTeam.mutate(event.target.value || null, { onError: fail })}
                  >
                    <option value="">My own meetings only</option>
                    {(teams.data ?? []).map((team) => (
                      <option key={team.id} value={team.id}>
                        My meetings and those of {team.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="grid gap-1">
                  <p className="font-medium">Learned from</p>
                  <ul className="grid gap-1" aria-label="Meetings your voice profile came from">
                    {data.profile.sources.map((source) => (
                      <li key={`${source.meetingId}-${source.addedAt}`}>
                        {source.canOpen ? (
                          <Link to={paths.meeting.href(source.meetingId)}>{source.meetingTitle || 'Untitled meeting'}</Link>
                        ) : (
                          source.meetingTitle
                        )}
                        <span className="text-muted-foreground">
                          {' '}
                          · {formatDate(source.addedAt)}
                          {source.via === 'suggestion' ? ' · a suggestion its owner accepted' : ''}
                        </span>
                        {source.state === 'relearning' && <span className="text-muted-foreground"> · being learned again (voices are now described anew)</span>}
                        {source.state === 'needs a new sample' && (
                          <span role="alert">
                            {' '}
                            · no longer used: voices are now described anew, and this one could not be from its meeting. Choose “This speaker is me” on a newer
                            meeting to give a new sample.
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
                <div>
                  <Button
                    variant="destructive"
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(undefined, {
                        onSuccess: () => toast.success('Your voice profile was deleted.'),
                        onError: fail,
                      })
                    }
                  >
                    Delete voice profile
                  </Button>
                </div>
              </>
            ) : (
              !data.learning.some((item) => item.status === 'pending') && (
                <p>You have no voice profile. On one of your meetings, choose “This speaker is me” under Voices.</p>
              )
            )}
            <p className="text-muted-foreground">{voicePathText(data.path)}</p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
