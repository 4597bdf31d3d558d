import { useState } from 'react';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/lib/toast.ts';
import { useAnswerSuggestion, useEnrolSpeaker, useMyVoice, useTeammates, useVoiceSuggestions } from '../api.ts';

type Meeting = Pick<MeetingDetail, 'id' | 'speakers' | 'hasAudio' | 'status' | 'access'>;

const fail = (error: unknown) => toast.error(error instanceof Error ? error.message : 'The change could not be saved.');

/**
 * A meeting's voices: for its owner, the suggestions ("Is this Tomasz?", yes or no in one click) and
 * naming a speaker after oneself or a teammate so later meetings name them (the teammate is asked
 * first); for a member of the team it is shared with, "This speaker is me". Only meetings with a
 * recording: a voice is learned from the audio (in a job; the card says how it went).
 */
export function MeetingVoicesCard({ meeting }: { meeting: Meeting }) {
  const ready = meeting.status === 'ready' && meeting.hasAudio && meeting.speakers.length > 0;
  const owned = meeting.access !== 'team';
  const suggestions = useVoiceSuggestions(meeting.id, ready && owned);
  const answer = useAnswerSuggestion(meeting.id);
  const enrol = useEnrolSpeaker(meeting.id);
  const teammates = useTeammates(ready && owned);
  const mine = useMyVoice(ready);
  const [speakerId, setSpeakerId] = useState('');
  const [who, setWho] = useState('me');
  if (!ready) return null;
  // The caller's own voice from this meeting: being learned, learned, or why it could not be.
  const learning = mine.data?.learning.find((item) => item.meetingId === meeting.id);
  const learned = mine.data?.profile?.sources.some((source) => source.meetingId === meeting.id && source.via === 'enrolment');
  const chosenSpeaker = meeting.speakers.find((s) => s.id === speakerId) ?? meeting.speakers[0]!;
  const labelOf = (id: string) => {
    const speaker = meeting.speakers.find((s) => s.id === id);
    return speaker ? (speaker.displayName ?? speaker.label) : 'A speaker';
  };
  const submit = () =>
    enrol.mutate(
      { speakerId: chosenSpeaker.id, body: who === 'me' ? { who: 'me' } : { who: 'teammate', userId: who } },
      {
        onSuccess: (result) =>
          toast.success(
            result.outcome === 'learning' ? 'Learning your voice from this meeting…' : `${result.displayName} was asked whether Parley may keep their voice.`,
          ),
        onError: fail,
      },
    );
  return (
    <Card role="region" aria-labelledby="meeting-voices-title">
      <CardHeader>
        <CardTitle id="meeting-voices-title">Voices</CardTitle>
        <CardDescription>
          {owned
            ? 'Name a speaker after yourself or a teammate, and later meetings recognise the voice.'
            : 'Say which speaker is you, and later meetings recognise your voice.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {learning?.status === 'pending' ? (
          <p role="status">Learning your voice from this meeting…</p>
        ) : learning?.status === 'failed' ? (
          <p role="alert">{learning.error ?? 'Could not learn this voice.'}</p>
        ) : (
          learned && <p role="status">Your voice profile has this voice now: later meetings name you.</p>
        )}
        {(suggestions.data?.learning ?? []).map((item) =>
          item.status === 'pending' ? (
            <p key={item.id} role="status">
              Learning {item.person.name}’s voice from this meeting…
            </p>
          ) : (
            <p key={item.id} role="alert">
              {item.error ?? 'Could not learn this voice.'} ({item.person.name})
            </p>
          ),
        )}
        {(suggestions.data?.suggestions ?? []).map((suggestion) => (
          <div key={suggestion.id} role="group" aria-label={`Suggestion for ${labelOf(suggestion.speakerId)}`} className="grid gap-2 rounded-md border p-3">
            <p>
              {labelOf(suggestion.speakerId)}: is this {suggestion.person.name}?
            </p>
            <div className="flex gap-2">
              <Button size="sm" disabled={answer.isPending} onClick={() => answer.mutate({ suggestionId: suggestion.id, accept: true }, { onError: fail })}>
                Yes, it is
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={answer.isPending}
                onClick={() => answer.mutate({ suggestionId: suggestion.id, accept: false }, { onError: fail })}
              >
                No
              </Button>
            </div>
          </div>
        ))}
        <form
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <label htmlFor="voice-speaker" className="font-medium">
            Speaker
          </label>
          <select
            id="voice-speaker"
            className="h-9 rounded-md border bg-transparent px-3"
            value={chosenSpeaker.id}
            onChange={(e) => setSpeakerId(e.target.value)}
          >
            {meeting.speakers.map((speaker) => (
              <option key={speaker.id} value={speaker.id}>
                {speaker.displayName ?? speaker.label}
              </option>
            ))}
          </select>
          <label htmlFor="voice-who" className="font-medium">
            Is
          </label>
          <select id="voice-who" className="h-9 rounded-md border bg-transparent px-3" value={who} onChange={(e) => setWho(e.target.value)}>
            <option value="me">Me</option>
            {(owned ? (teammates.data ?? []) : []).map((person) => (
              <option key={person.id} value={person.id}>
                {person.name} (asked first)
              </option>
            ))}
          </select>
          <div>
            <Button type="submit" size="sm" disabled={enrol.isPending}>
              {who === 'me' ? 'This speaker is me' : 'Name and ask them'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
