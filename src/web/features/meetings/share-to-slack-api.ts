import { useMutation } from '@tanstack/react-query';
import { slackEndpoints } from '#shared/contracts/chat-integrations.ts';
import { api } from '#web/lib/api-client.ts';

/** "Share to Slack": the meeting's notes (and its transcript when asked) posted now to the person's Slack channel. */
export function useShareToSlack(meetingId: string) {
  return useMutation({
    mutationFn: (options: { transcript: boolean }) => api(slackEndpoints.share, { params: { id: meetingId }, body: { transcript: options.transcript } }),
  });
}
