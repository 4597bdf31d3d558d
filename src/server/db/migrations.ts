import type { Migration } from 'kysely';
import * as createInstanceSettings from './migrations/2026-11-22-1000-create-instance-settings.ts';
import * as createAuth from './migrations/2026-11-22-1010-create-auth.ts';
import * as createMeetings from './migrations/2026-11-22-1100-create-meetings.ts';
import * as createShareLinks from './migrations/2026-11-22-1200-create-share-links.ts';
import * as meetingUpload from './migrations/2026-11-22-1300-meeting-upload.ts';
import * as segmentSentiment from './migrations/2026-11-22-1400-segment-sentiment.ts';
import * as createTranscriptionJobs from './migrations/2026-11-22-1500-create-transcription-jobs.ts';
import * as createUserSettings from './migrations/2026-11-22-1600-create-user-settings.ts';
import * as meetingAudioSources from './migrations/2026-11-22-1700-meeting-audio-sources.ts';
import * as searchRows from './migrations/2026-11-22-1800-search-rows.ts';
import * as foreignKeyIndexes from './migrations/2026-11-22-1900-foreign-key-indexes.ts';
import * as createJobs from './migrations/2026-11-23-1000-create-jobs.ts';
import * as meetingNotes from './migrations/2026-11-23-1100-meeting-notes.ts';
import * as participantsFromSpeakers from './migrations/2026-11-23-1200-participants-from-speakers.ts';
import * as createMentionsAndDecisionLinks from './migrations/2026-11-24-1000-create-mentions-and-decision-links.ts';
import * as createAskEmbeddings from './migrations/2026-11-24-1620-create-ask-embeddings.ts';
import * as createTeams from './migrations/2026-11-24-1400-create-teams.ts';
import * as meetingTeam from './migrations/2026-11-24-1410-meeting-team.ts';
import * as teamPresence from './migrations/2026-11-24-1420-team-presence.ts';
import * as createNotifications from './migrations/2026-11-24-1600-create-notifications.ts';
import * as searchPassages from './migrations/2026-11-25-1000-search-passages.ts';
import * as createDomainEvents from './migrations/2026-12-06-1000-create-domain-events.ts';
import * as invitationEmailDelivery from './migrations/2026-12-06-1010-invitation-email-delivery.ts';
import * as jobProgressDetail from './migrations/2026-12-06-1020-job-progress-detail.ts';
import * as emailChangeConfirmStatus from './migrations/2026-12-06-1030-email-change-confirm-status.ts';
import * as meetingTranscriptBytes from './migrations/2026-12-06-1040-meeting-transcript-bytes.ts';
import * as createIdempotencyKeys from './migrations/2026-12-06-1050-create-idempotency-keys.ts';
import * as createBlobs from './migrations/2026-12-06-1100-create-blobs.ts';
import * as createApiTokens from './migrations/2026-12-07-0100-create-api-tokens.ts';
import * as createWebhooks from './migrations/2026-12-07-0110-create-webhooks.ts';
import * as createCalendar from './migrations/2026-12-07-0200-create-calendar.ts';
import * as createChatConnections from './migrations/2026-12-07-0300-create-chat-connections.ts';
import * as firstSession from './migrations/2026-12-07-0500-first-session.ts';
import * as createBillingAccounts from './migrations/2026-12-07-1000-create-billing-accounts.ts';
import * as billingSubscriptions from './migrations/2026-12-07-1010-billing-subscriptions.ts';
import * as createBillingUsage from './migrations/2026-12-08-0400-create-billing-usage.ts';
import * as createBillingPaymentFailures from './migrations/2026-12-09-0500-create-billing-payment-failures.ts';
import * as createTeamsSync from './migrations/2026-12-07-1100-create-teams-sync.ts';
import * as createEmotionScores from './migrations/2026-12-07-1200-create-emotion-scores.ts';
import * as calendarEventLinks from './migrations/2026-12-08-0000-calendar-event-links.ts';
import * as firstVisitSeenAt from './migrations/2026-12-08-0100-add-first-visit-seen-at.ts';
import * as insightAssigneeSpeaker from './migrations/2026-12-08-0110-add-insight-assignee-speaker.ts';
import * as createVoiceProfiles from './migrations/2026-12-08-0200-create-voice-profiles.ts';
import * as createCalendarReminders from './migrations/2026-12-08-0600-create-calendar-reminders.ts';
import * as voiceLearningState from './migrations/2026-12-09-0300-voice-learning-state.ts';
import * as voiceSampleRelearning from './migrations/2026-12-11-0100-voice-sample-relearning.ts';
import * as calendarLinkAttendees from './migrations/2026-12-09-0600-calendar-link-attendees.ts';
import * as notesSummarySentences from './migrations/2026-12-10-0200-notes-summary-sentences.ts';
import * as createSampleSetups from './migrations/2026-12-10-0400-create-sample-setups.ts';
import * as createVocabularies from './migrations/2026-12-08-0300-create-vocabularies.ts';
import * as createTranscriptCorrections from './migrations/2026-12-08-0310-create-transcript-corrections.ts';
import { sealAuthSecrets, type Sealer } from './migrations/2026-11-24-1100-seal-auth-secrets.ts';
import * as audioBytesBigint from './migrations/2026-11-24-1200-audio-bytes-bigint.ts';
import * as sessionRecovery from './migrations/2026-11-24-1300-session-recovery.ts';
import * as createDataExports from './migrations/2026-11-24-1310-create-data-exports.ts';

export type { Sealer };

/**
 * The ordered list of migrations. Listed explicitly (not read from disk) so the bundled server
 * carries them; keys sort in the order they must run. The sealer (the installation's secret key)
 * is what the migration sealing stored secrets needs; without it that one only passes on a
 * database without secrets.
 */
export const migrationsWith = (sealer?: Sealer): Record<string, Migration> => ({
  '2026-11-22-1000-create-instance-settings': createInstanceSettings,
  '2026-11-22-1010-create-auth': createAuth,
  '2026-11-22-1100-create-meetings': createMeetings,
  '2026-11-22-1200-create-share-links': createShareLinks,
  '2026-11-22-1300-meeting-upload': meetingUpload,
  '2026-11-22-1400-segment-sentiment': segmentSentiment,
  '2026-11-22-1500-create-transcription-jobs': createTranscriptionJobs,
  '2026-11-22-1600-create-user-settings': createUserSettings,
  '2026-11-22-1700-meeting-audio-sources': meetingAudioSources,
  '2026-11-22-1800-search-rows': searchRows,
  '2026-11-22-1900-foreign-key-indexes': foreignKeyIndexes,
  '2026-11-23-1000-create-jobs': createJobs,
  '2026-11-23-1100-meeting-notes': meetingNotes,
  '2026-11-23-1200-participants-from-speakers': participantsFromSpeakers,
  '2026-11-24-1000-create-mentions-and-decision-links': createMentionsAndDecisionLinks,
  '2026-11-24-1100-seal-auth-secrets': sealAuthSecrets(sealer),
  '2026-11-24-1200-audio-bytes-bigint': audioBytesBigint,
  '2026-11-24-1300-session-recovery': sessionRecovery,
  '2026-11-24-1310-create-data-exports': createDataExports,
  '2026-11-24-1400-create-teams': createTeams,
  '2026-11-24-1410-meeting-team': meetingTeam,
  '2026-11-24-1420-team-presence': teamPresence,
  '2026-11-24-1600-create-notifications': createNotifications,
  '2026-11-24-1620-create-ask-embeddings': createAskEmbeddings,
  '2026-11-25-1000-search-passages': searchPassages,
  '2026-12-06-1000-create-domain-events': createDomainEvents,
  '2026-12-06-1010-invitation-email-delivery': invitationEmailDelivery,
  '2026-12-06-1020-job-progress-detail': jobProgressDetail,
  '2026-12-06-1030-email-change-confirm-status': emailChangeConfirmStatus,
  '2026-12-06-1040-meeting-transcript-bytes': meetingTranscriptBytes,
  '2026-12-06-1050-create-idempotency-keys': createIdempotencyKeys,
  '2026-12-06-1100-create-blobs': createBlobs,
  '2026-12-07-0100-create-api-tokens': createApiTokens,
  '2026-12-07-0110-create-webhooks': createWebhooks,
  '2026-12-07-0200-create-calendar': createCalendar,
  '2026-12-07-0300-create-chat-connections': createChatConnections,
  '2026-12-07-0500-first-session': firstSession,
  '2026-12-07-1000-create-billing-accounts': createBillingAccounts,
  '2026-12-07-1010-billing-subscriptions': billingSubscriptions,
  '2026-12-07-1100-create-teams-sync': createTeamsSync,
  '2026-12-07-1200-create-emotion-scores': createEmotionScores,
  '2026-12-08-0000-calendar-event-links': calendarEventLinks,
  '2026-12-08-0100-add-first-visit-seen-at': firstVisitSeenAt,
  '2026-12-08-0110-add-insight-assignee-speaker': insightAssigneeSpeaker,
  '2026-12-08-0200-create-voice-profiles': createVoiceProfiles,
  '2026-12-08-0300-create-vocabularies': createVocabularies,
  '2026-12-08-0310-create-transcript-corrections': createTranscriptCorrections,
  '2026-12-08-0400-create-billing-usage': createBillingUsage,
  '2026-12-08-0600-create-calendar-reminders': createCalendarReminders,
  '2026-12-09-0300-voice-learning-state': voiceLearningState,
  '2026-12-09-0500-create-billing-payment-failures': createBillingPaymentFailures,
  '2026-12-09-0600-calendar-link-attendees': calendarLinkAttendees,
  '2026-12-10-0200-notes-summary-sentences': notesSummarySentences,
  '2026-12-10-0400-create-sample-setups': createSampleSetups,
  '2026-12-11-0100-voice-sample-relearning': voiceSampleRelearning,
});

/** The migrations for a database that holds no secrets yet (tests of one migration's effect). */
export const MIGRATIONS: Record<string, Migration> = migrationsWith();
