import { z } from 'zod/mini';
import { AttendeeSchema } from './calendar.ts';
import { InvitedRoleSchema, TeamRoleSchema } from './teams.ts';

/**
 * Domain events: what happened to Parley's data, recorded in the same database transaction as the
 * change and delivered to subscribers through the job queue (at least once, in order per subject).
 * Each type has a versioned payload schema: a payload is never changed in place; a new shape gets a
 * new version, and subscribers read every version still stored.
 */

/** What an event is about: deliveries of one subject's events to one subscriber keep their order. */
export const EventSubjectTypeSchema = z.enum(['meeting', 'team', 'invitation', 'user']);
export type EventSubjectType = z.infer<typeof EventSubjectTypeSchema>;

const NoteItemSchema = z.object({
  kind: z.enum(['key_point', 'action_item', 'decision', 'topic']),
  text: z.string(),
  assignee: z.nullable(z.string()),
  startMs: z.number(),
});

/** Every event type with its current payload schema (version 1 each, so far). */
export const EVENT_PAYLOADS = {
  /** A meeting was created: a recording starting or a file about to be uploaded. */
  'meeting.created': z.object({ title: z.string(), source: z.string() }),
  /** Its recording was stored and checked; transcription comes next. */
  'recording.stored': z.object({ bytes: z.number(), durationSeconds: z.number() }),
  /** A transcript was stored: by transcription, or from an imported file. */
  'transcript.ready': z.object({ origin: z.enum(['transcription', 'import']), title: z.string() }),
  /** The owner edited the transcript: a line's text, a speaker's name, lines moved between speakers, a line split or joined again. */
  'transcript.edited': z.object({
    change: z.enum(['text', 'speaker_renamed', 'speakers_merged', 'segments_assigned', 'segment_split', 'segments_joined']),
    /** speakers_merged: which speaker went into which, so what named the first (an action item's owner) names the other. */
    merged: z.optional(z.object({ speakerId: z.string(), intoSpeakerId: z.string() })),
  }),
  /** Notes were written; `explicit` when the person asked (Regenerate). */
  'notes.ready': z.object({ explicit: z.boolean(), summary: z.nullable(z.string()), items: z.array(NoteItemSchema) }),
  /** The notes could not be written, their tries used up: the person sees the reason on the meeting. */
  'notes.failed': z.object({ explicit: z.boolean(), reason: z.string() }),
  /** The owner changed the meeting's title, date, participants or options. */
  'meeting.updated': z.object({ fields: z.array(z.string()) }),
  /** The owner shared the meeting with a team, or made it private again (teamId null). */
  'meeting.shared': z.object({ teamId: z.nullable(z.string()), previousTeamId: z.nullable(z.string()), title: z.string() }),
  /** The meeting and everything it held were deleted (by its owner, the auto-delete sweep, or the account's deletion). */
  'meeting.deleted': z.object({}),
  /** Notes written with a new action item (a person's edit of it is `action_item.updated`). */
  'action_item.created': z.object({ itemId: z.string(), text: z.string(), assignee: z.nullable(z.string()), due: z.nullable(z.string()), startMs: z.number() }),
  /** The owner changed an action item: its text, assignee, due date or status (ticked done is `action_item.completed`). */
  'action_item.updated': z.object({
    itemId: z.string(),
    text: z.string(),
    assignee: z.nullable(z.string()),
    due: z.nullable(z.string()),
    status: z.enum(['open', 'done', 'dismissed']),
    changed: z.array(z.string()),
  }),
  'action_item.completed': z.object({ itemId: z.string(), text: z.string(), assignee: z.nullable(z.string()) }),
  /** Notes written with a new decision. */
  'decision.recorded': z.object({ itemId: z.string(), text: z.string(), startMs: z.number() }),
  /** Someone joined a team (created it, or accepted an invitation). */
  'team.member_added': z.object({ userId: z.string(), role: TeamRoleSchema }),
  'team.member_removed': z.object({ userId: z.string(), left: z.boolean() }),
  'team.role_changed': z.object({ userId: z.string(), role: TeamRoleSchema, previousRole: TeamRoleSchema }),
  /** The owner deleted the team (its members and invitations went with it): what other features kept for it goes too. */
  'team.deleted': z.object({}),
  /**
   * An invitation was made. `email` is null for a link to copy. The link's token is sealed with the
   * installation key: only its hash is kept with the invitation, and the email is sent from here.
   */
  'invitation.created': z.object({
    invitationId: z.string(),
    teamId: z.string(),
    teamName: z.string(),
    email: z.nullable(z.string()),
    role: InvitedRoleSchema,
    sealedToken: z.nullable(z.string()),
    expiresAt: z.string(),
  }),
  /**
   * An event of the person's connected calendar starts within minutes (the calendar's sweep, once per
   * occurrence and start time): as it was stored then; whoever acts on it reads it again.
   */
  'calendar.event_starting': z.object({
    eventId: z.string(),
    title: z.string(),
    start: z.string(),
    end: z.string(),
    attendees: z.array(AttendeeSchema),
  }),
  /** Settings › Billing › Billing Information was saved (billing copies it to the person's Stripe customer). */
  'billing_details.updated': z.object({}),
  /** A meeting's owner named a speaker after a teammate: the teammate (the owner of this event) is asked to let Parley keep a profile of their voice. */
  'voice_consent.requested': z.object({ consentId: z.string(), meetingTitle: z.string() }),
  /**
   * A voice is to be learned for a person's profile (the owner of this event), recorded with the
   * decision: their consent given (`consent`, "this speaker is me" or a teammate's request accepted)
   * or a suggestion of their name accepted by a meeting's owner (`suggestion`). Voice profiles queue
   * the learning; the decision's row says whether it is still to be done.
   */
  'voice.learning_requested': z.object({ kind: z.enum(['consent', 'suggestion']), id: z.string() }),
  /** The subscription's payment failed and Stripe is retrying it (past_due): billing emails the person, once each time it becomes so. */
  'subscription.past_due': z.object({ plan: z.string(), planName: z.string() }),
  /** An account was created (sign-up, or an emailed link or code that made one): its sample meetings are set up. */
  'account.created': z.object({}),
  /** An invoice's payment failed (Stripe's `invoice.payment_failed`), raised once per invoice: billing emails the person, notifications rings the bell. Amount in the currency's smallest unit. */
  'invoice.payment_failed': z.object({ invoiceId: z.string(), amountDue: z.number(), currency: z.string() }),
  /** The account was deleted (its rows are gone by the time this is delivered). */
  'account.deleted': z.object({}),
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;
export type EventPayload<T extends EventType> = z.infer<(typeof EVENT_PAYLOADS)[T]>;

/** The version every event is recorded with today; a changed payload shape bumps its type's version. */
export const EVENT_VERSION = 1;

/** An event as recorded and as subscribers receive it. */
export type DomainEvent<T extends EventType = EventType> = {
  [K in T]: {
    id: string;
    type: K;
    version: number;
    occurredAt: string;
    /** Who did it; null for the system (a job, a sweep). */
    actorId: string | null;
    /** Whose data it is, and the team it was shared with then. */
    ownerId: string | null;
    teamId: string | null;
    subject: { type: EventSubjectType; id: string };
    payload: EventPayload<K>;
  };
}[T];

/** An event as a service raises it: the recorder gives it its id, version and time. */
export type NewDomainEvent<T extends EventType = EventType> = {
  [K in T]: Omit<DomainEvent<K>, 'id' | 'version' | 'occurredAt'>;
}[T];
