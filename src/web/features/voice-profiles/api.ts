import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { voiceProfileEndpoints, type EnrolVoiceBody, type MyVoiceResponse } from '#shared/contracts/voice-profiles.ts';
import { api } from '#web/lib/api-client.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { MEETING_DATA_KEY, TEAM_DATA_KEY } from '#web/lib/query-keys.ts';

/** Keyed by account, so another person signing in on this browser never sees the last one's profile. */
const voiceKeys = {
  mine: (userId: string) => ['voice-profile', userId] as const,
  // Under the meetings' root: a meeting changed (realtime, an edit) asks its suggestions again too.
  suggestions: (meetingId: string) => [...MEETING_DATA_KEY, meetingId, 'voice-suggestions'] as const,
};

/** While a voice is being learned (a job on the server), asked again this often until it is done or failed. */
const LEARNING_POLL_MS = 1500;

export function useMyVoice(enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: voiceKeys.mine(user?.id ?? ''),
    queryFn: ({ signal }) => api(voiceProfileEndpoints.mine, {}, { signal }),
    enabled: enabled && Boolean(user),
    refetchInterval: (query) => (query.state.data?.learning.some((l) => l.status === 'pending') ? LEARNING_POLL_MS : false),
  });
}

/** The caller's voice answers (accept, decline, team, delete) all answer the whole of it: set it in place. */
function useVoiceChange<I>(send: (input: I) => Promise<MyVoiceResponse>) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => client.setQueryData(voiceKeys.mine(user?.id ?? ''), answer),
  });
}

export const useAnswerVoiceRequest = () =>
  useVoiceChange((input: { id: string; accept: boolean; teamId?: string | null }) =>
    api(voiceProfileEndpoints.answerRequest, {
      params: { id: input.id },
      body: { accept: input.accept, ...(input.teamId === undefined ? {} : { teamId: input.teamId }) },
    }),
  );
export const useSetVoiceTeam = () => useVoiceChange((teamId: string | null) => api(voiceProfileEndpoints.update, { body: { teamId } }));
export const useDeleteVoiceProfile = () => useVoiceChange((_: void) => api(voiceProfileEndpoints.remove, {}));

/** The meeting's open suggestions, and the accepted ones whose voice is being learned (asked again until done) or failed. */
export function useVoiceSuggestions(meetingId: string, enabled: boolean) {
  return useQuery({
    queryKey: voiceKeys.suggestions(meetingId),
    queryFn: ({ signal }) => api(voiceProfileEndpoints.suggestions, { params: { id: meetingId } }, { signal }),
    enabled,
    refetchInterval: (query) => (query.state.data?.learning.some((l) => l.status === 'pending') ? LEARNING_POLL_MS : false),
  });
}

/** Yes names the speaker (the meeting reads again); no is never asked again. */
export function useAnswerSuggestion(meetingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { suggestionId: string; accept: boolean }) =>
      api(voiceProfileEndpoints.answerSuggestion, { params: { id: meetingId, suggestionId: input.suggestionId }, body: { accept: input.accept } }),
    onSuccess: async (answer, input) => {
      client.setQueryData(voiceKeys.suggestions(meetingId), answer);
      if (input.accept) await client.invalidateQueries({ queryKey: MEETING_DATA_KEY });
    },
  });
}

/** "This speaker is me" or a teammate's name: the speaker is renamed (the meeting reads again) and the caller's voice is being learned. */
export function useEnrolSpeaker(meetingId: string) {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { speakerId: string; body: EnrolVoiceBody }) =>
      api(voiceProfileEndpoints.enrol, { params: { id: meetingId, speakerId: input.speakerId }, body: input.body }),
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: MEETING_DATA_KEY }), client.invalidateQueries({ queryKey: voiceKeys.mine(user?.id ?? '') })]);
    },
  });
}

/** The people the caller shares a team with (whom a speaker may be named after), by name, each once. */
export function useTeammates(enabled: boolean) {
  const { user } = useAuth();
  return useQuery({
    queryKey: [...TEAM_DATA_KEY, 'voice-teammates', user?.id ?? ''],
    queryFn: async ({ signal }) => {
      const teams = (await api(teamEndpoints.list, {}, { signal })).items;
      const lists = await Promise.all(teams.map((team) => api(teamEndpoints.members, { params: { teamId: team.id } }, { signal })));
      const people = new Map<string, string>();
      for (const member of lists.flatMap((list) => list.items)) if (member.userId !== user?.id) people.set(member.userId, member.name || member.email);
      return [...people].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    },
    enabled: enabled && Boolean(user),
  });
}
