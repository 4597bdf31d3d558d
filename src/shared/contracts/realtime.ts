import { z } from 'zod/mini';
import { progressDetailShape, ProgressFractionSchema, TranscriptionStageSchema } from './job-progress.ts';
import { MeetingStatusSchema } from './meetings.ts';
import { NotesStateSchema } from './notes.ts';
import { NotificationSchema } from './notifications.ts';

/**
 * The realtime channel (WebSocket at /realtime). The client's first message authenticates with its
 * access token (browsers cannot set headers on a WebSocket, and a token in the URL would end up in
 * logs); the server then pushes events for that person only.
 */
export const REALTIME_PATH = '/realtime';
/** The socket's close code for a session that still owes its MFA challenge (4401 is a bad or expired token). */
export const REALTIME_CLOSE_INSUFFICIENT_AAL = 4403;

export const RealtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), accessToken: z.string().check(z.minLength(1), z.maxLength(8192)) }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessageSchema>;

/**
 * A meeting's processing changed: status, and while processing, the transcription's stage (null when
 * unknown), progress 0..1 and when a retry is due.
 */
export const MeetingProgressEventSchema = z.object({
  type: z.literal('meeting.progress'),
  meetingId: z.uuid(),
  status: MeetingStatusSchema,
  stage: TranscriptionStageSchema,
  progress: ProgressFractionSchema,
  ...progressDetailShape,
  failureReason: z.nullable(z.string()),
});
export type MeetingProgressEvent = z.infer<typeof MeetingProgressEventSchema>;

/** A meeting's notes changed state: queued, running "part N of M", ready, failed, off. */
export const MeetingNotesEventSchema = z.object({
  type: z.literal('meeting.notes'),
  meetingId: z.uuid(),
  notes: NotesStateSchema,
});
export type MeetingNotesEvent = z.infer<typeof MeetingNotesEventSchema>;

/** The person's data export moved on: queued, running (progress 0..1), ready to download, or failed. */
export const DataExportEventSchema = z.object({
  type: z.literal('account.export'),
  exportId: z.uuid(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
  progress: z.nullable(z.number().check(z.gte(0), z.lte(1))),
});
export type DataExportEvent = z.infer<typeof DataExportEventSchema>;

/**
 * Something a team's /team page shows changed: its members, their roles or availability, its
 * invitations, name or activity, or which meetings are shared with it. Carries no details: the page
 * reads them again, through the same role checks as any request. Also sent to a person removed from
 * the team (their page then finds it gone).
 */
export const TeamChangedEventSchema = z.object({
  type: z.literal('team.changed'),
  teamId: z.uuid(),
});
export type TeamChangedEvent = z.infer<typeof TeamChangedEventSchema>;

/** A new in-app notification for the person (the bell), with their unread count now. */
export const NotificationEventSchema = z.object({
  type: z.literal('notification'),
  notification: NotificationSchema,
  unreadCount: z.number().check(z.int(), z.nonnegative()),
});
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;

export const RealtimeServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), userId: z.uuid() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  MeetingProgressEventSchema,
  MeetingNotesEventSchema,
  DataExportEventSchema,
  TeamChangedEventSchema,
  NotificationEventSchema,
]);
export type RealtimeServerMessage = z.infer<typeof RealtimeServerMessageSchema>;
/** Events the server pushes to a person (everything but the channel's own handshake messages). */
export const RealtimeEventSchema = z.discriminatedUnion('type', [
  MeetingProgressEventSchema,
  MeetingNotesEventSchema,
  DataExportEventSchema,
  TeamChangedEventSchema,
  NotificationEventSchema,
]);
export type RealtimeEvent = z.infer<typeof RealtimeEventSchema>;
