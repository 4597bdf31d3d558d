import type { DomainEvents } from '#server/events/domain-events.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import type { NotificationsService } from './notifications.service.ts';

/**
 * Settings › Notifications acted on: a transcript stored (Transcription Complete, mentions), a
 * meeting shared with a team or imported into it (mentions), notes written (AI Insights Ready, action
 * items assigned) or failed (the Transcription Complete email that waited for them), an action item
 * given to someone by its owner, an invitation to an address that has an account (the bell), a
 * teammate asking to keep a profile of the person's voice (the bell and an email), a calendar event
 * starting soon (Meeting Reminders), an invoice of the person's whose payment failed (the bell).
 */
export function subscribeNotifications(events: DomainEvents, notifications: NotificationsService, teams: Pick<TeamsService, 'invitationUrlOf'>): void {
  events.subscribe(
    'notifications',
    [
      'transcript.ready',
      'meeting.shared',
      'notes.ready',
      'notes.failed',
      'action_item.updated',
      'invitation.created',
      'voice_consent.requested',
      'calendar.event_starting',
      'invoice.payment_failed',
    ],
    async (event) => {
      switch (event.type) {
        case 'transcript.ready':
          if (!event.ownerId) return;
          if (event.payload.origin === 'transcription') return notifications.transcriptionComplete(event.subject.id, event.ownerId);
          if (event.teamId) return notifications.teamTranscript(event.subject.id, event.ownerId);
          return;
        case 'meeting.shared':
          if (event.payload.teamId && event.ownerId) return notifications.teamTranscript(event.subject.id, event.ownerId);
          return;
        case 'notes.ready':
          if (!event.ownerId) return;
          return notifications.notesReady({
            meetingId: event.subject.id,
            ownerId: event.ownerId,
            explicit: event.payload.explicit,
            items: event.payload.items,
          });
        case 'notes.failed':
          if (!event.ownerId) return;
          return notifications.notesFailed({ meetingId: event.subject.id, ownerId: event.ownerId, explicit: event.payload.explicit });
        case 'action_item.updated': {
          const { assignee, changed, status, text } = event.payload;
          if (!event.ownerId || !assignee || status !== 'open' || !changed.includes('assignee')) return;
          return notifications.actionItemAssigned({ meetingId: event.subject.id, ownerId: event.ownerId, actorId: event.actorId, text, assignee });
        }
        case 'invitation.created': {
          const url = teams.invitationUrlOf(event);
          if (!event.payload.email || !url) return;
          return notifications.teamInvitationSent({
            invitationId: event.payload.invitationId,
            email: event.payload.email,
            teamName: event.payload.teamName,
            inviterId: event.actorId,
            url,
          });
        }
        case 'voice_consent.requested':
          if (!event.ownerId) return;
          return notifications.voiceConsentRequested({
            consentId: event.payload.consentId,
            personId: event.ownerId,
            requesterId: event.actorId,
            meetingTitle: event.payload.meetingTitle,
          });
        case 'calendar.event_starting':
          if (!event.ownerId) return;
          return notifications.meetingReminder({ userId: event.ownerId, eventId: event.payload.eventId, start: event.payload.start });
        case 'invoice.payment_failed':
          if (!event.ownerId) return;
          return notifications.paymentFailed({ userId: event.ownerId, ...event.payload });
      }
    },
  );
}
