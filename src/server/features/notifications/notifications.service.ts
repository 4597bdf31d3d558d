import crypto from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { z } from 'zod';
import {
  CHOICE_OF_KIND,
  EMAIL_CHOICE_LABELS,
  MAX_NOTIFICATIONS_LISTED,
  type EmailChoice,
  type MarkNotificationsRead,
  type Notification,
  type NotificationKind,
  type NotificationList,
} from '#shared/contracts/notifications.ts';
import { formatAmount } from '#shared/contracts/billing.ts';
import type { NotificationEvent } from '#shared/contracts/realtime.ts';
import type { NotificationSettings } from '#shared/contracts/settings.ts';
import type { TeamActivity } from '#shared/contracts/teams.ts';
import type { Db } from '#server/db/create-db.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { bestEffort } from '#server/lib/best-effort.ts';
import type { RealtimeHub } from '#server/lib/realtime/realtime-hub.ts';
import type { MeetingRecord, MeetingsService } from '../meetings/meetings.service.ts';
import { notesWantedAutomatically } from '../notes/notes.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import {
  actionItemEmail,
  insightsReadyEmail,
  meetingReminderEmail,
  teamDigestEmail,
  transcriptionCompleteEmail,
  voiceConsentEmail,
  type EmailFooter,
  type NotificationEmail,
} from './notification-emails.ts';
import {
  claimDigestDay,
  currentUnsubscribeKey,
  deleteAllOf,
  insertNotification,
  lastDigestAt,
  markRead,
  notificationsOf,
  releaseDigestDay,
  unreadCountOf,
  unsubscribeKeyOf,
  type NotificationRow,
} from './notifications.repository.ts';
import { findMentions, resolveOwner, type Person } from './people-in-text.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

export type { NotificationEmail } from './notification-emails.ts';

/** A person as notifications address them (auth's profiles, given in deps.ts). */
export type Recipient = { id: string; name: string; email: string };

/** A meeting's notes, as the notes feature hands them over once written. */
export type NotesReady = {
  meetingId: string;
  ownerId: string;
  /** The person asked for them (Regenerate) and is looking at the meeting: no email. */
  explicit: boolean;
  items: readonly { kind: 'key_point' | 'action_item' | 'decision' | 'topic'; text: string; assignee: string | null; startMs: number }[];
};

/** A calendar event as a meeting reminder reads it (the calendar feature's, given in deps.ts). */
export type ReminderEvent = { id: string; title: string; start: string; end: string; attendees: readonly { name: string; email: string | null }[] };

/** The owner gave an action item of their meeting to someone (`action_item.updated` with a new assignee). */
export type ActionItemAssigned = { meetingId: string; ownerId: string; actorId: string | null; text: string; assignee: string };

/** An invitation made for an address (the teams feature), for the in-app notice when the address has an account. */
export type TeamInvitationSent = { invitationId: string; email: string; teamName: string; inviterId: string | null; url: string };

type NotificationsDeps = {
  db: Db;
  jobs: JobQueue;
  realtime: Pick<RealtimeHub, 'publish'>;
  sendEmail: (email: NotificationEmail) => Promise<void>;
  settings: Pick<SettingsService, 'get' | 'update' | 'timeZoneOf' | 'notificationChoosers' | 'automaticNotes'>;
  profilesOf: (userIds: readonly string[]) => Promise<Map<string, Recipient>>;
  /** The account of an email address, if there is one (auth's users). */
  userIdOfEmail: (email: string) => Promise<string | undefined>;
  meetings: Pick<MeetingsService, 'get' | 'notesSource' | 'transcriptHeader'>;
  teams: Pick<TeamsService, 'list' | 'activity' | 'memberIdsOf'>;
  /** The person's calendar event, if it is still there and has not started (the calendar feature's). */
  upcomingEvent: (userId: string, eventId: string) => Promise<ReminderEvent | undefined>;
  unsubscribeTokens: UnsubscribeTokens;
  /** PUBLIC_URL: links in emails. */
  publicUrl: string;
  now: () => Date;
  log: Logger;
};

/** The hour (in the person's time zone) from which the day's Team Activity digest may go out. */
export const DIGEST_HOUR = 8;
/** How far back a first digest (or one after a long pause) looks. */
const DIGEST_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Entries read per team for a digest: more than a day of any real team's activity. */
const DIGEST_ENTRIES_PER_TEAM = 100;
const DigestPayload = z.object({});

const MAX_BODY = 240;
const clip = (text: string) => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY - 1).trimEnd()}…` : text);
const hashKey = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
const meetingPath = (id: string, at?: number) => `/meetings/${encodeURIComponent(id)}${at === undefined ? '' : `?t=${Math.max(0, Math.round(at))}`}`;

/** The person's local date (YYYY-MM-DD) and hour at `at`. */
function localClock(at: Date, timeZone: string): { day: string; hour: number } {
  const day = at.toLocaleDateString('en-CA', { timeZone });
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
  return { day, hour };
}

/**
 * Notifications: acts on Settings › Notifications. Emails (Meeting Reminders, Transcription
 * Complete, AI Insights Ready, the daily Team Activity digest, an action item given to you), each with an unsubscribe
 * link, and in-app notifications (action items assigned to you, mentions, team invitations) pushed
 * over /realtime. Every one reads
 * the person's choice when it would be sent. Other features hand events over through ports in
 * deps.ts; this feature reads meetings and teams through their services only.
 */
export type NotificationsService = ReturnType<typeof createNotificationsService>;

export function createNotificationsService(deps: NotificationsDeps) {
  const { db, log } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');
  const nowIso = () => deps.now().toISOString();

  const choicesOf = async (userId: string): Promise<NotificationSettings> => (await deps.settings.get({ id: userId })).settings.notifications;

  const present = (row: NotificationRow): Notification => ({
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.created_at,
    readAt: row.read_at,
  });

  /**
   * An in-app notification, if the person's choice for its kind is on; it reaches their open tabs at
   * once. Answers whether it was stored (false: the choice is off, or one with its dedupe key exists).
   */
  const notify = async (
    userId: string,
    input: { kind: NotificationKind; title: string; body: string; link: string; dedupeKey?: string; aboutUserId?: string },
  ): Promise<boolean> => {
    const choice = CHOICE_OF_KIND[input.kind];
    if (choice !== null && !(await choicesOf(userId))[choice]) return false;
    const row: NotificationRow = {
      id: crypto.randomUUID(),
      user_id: userId,
      kind: input.kind,
      title: input.title,
      body: clip(input.body),
      link: input.link,
      about_user_id: input.aboutUserId ?? null,
      dedupe_key: input.dedupeKey ?? null,
      created_at: nowIso(),
      read_at: null,
    };
    if (!(await insertNotification(db, row))) return false;
    const event: NotificationEvent = { type: 'notification', notification: present(row), unreadCount: await unreadCountOf(db, userId) };
    deps.realtime.publish(userId, event);
    return true;
  };

  const unsubscribeUrl = async (userId: string, choice: EmailChoice) => {
    const keyId = await unsubscribeKeyOf(db, userId, () => crypto.randomBytes(12).toString('hex'), nowIso());
    return `${base}/api/v1/notifications/unsubscribe?token=${encodeURIComponent(deps.unsubscribeTokens.sign({ userId, choice, keyId }))}`;
  };
  const footer = async (userId: string, choice: EmailChoice): Promise<EmailFooter> => ({
    choice,
    unsubscribeUrl: await unsubscribeUrl(userId, choice),
    settingsUrl: `${base}/settings?tab=notifications`,
  });

  /** The email of a choice, if the person has it on now; a failure is logged, never the caller's failure. */
  const emailIfChosen = async (userId: string, choice: EmailChoice, compose: (to: Recipient, footer: EmailFooter) => NotificationEmail) => {
    if (!(await choicesOf(userId))[choice]) return false;
    const recipient = (await deps.profilesOf([userId])).get(userId);
    if (!recipient) return false;
    await deps.sendEmail(compose(recipient, await footer(userId, choice)));
    return true;
  };

  /** The meeting's owner and, while it is shared, its team's members: who an action item or a mention may name. */
  const peopleOfMeeting = async (ownerId: string, teamId: string | null | undefined): Promise<Person[]> => {
    const ids = [ownerId, ...(teamId ? await deps.teams.memberIdsOf(teamId) : [])];
    const profiles = await deps.profilesOf(ids);
    return [...new Set(ids)].flatMap((id) => {
      const profile = profiles.get(id);
      return profile ? [{ userId: id, name: profile.name }] : [];
    });
  };

  /**
   * Mentions: a teammate's whole name said in a meeting shared with their team (the owner knows their
   * own meeting), once per meeting and person however often it is shared or transcribed again.
   */
  const mentionsIn = async (meetingId: string, ownerId: string, meeting?: MeetingRecord): Promise<void> => {
    meeting ??= await deps.meetings.get(ownerId, meetingId);
    if (!meeting?.teamId || meeting.isSample || meeting.status !== 'ready') return;
    const source = await deps.meetings.notesSource(meetingId);
    if (!source) return;
    const teammates = (await peopleOfMeeting(ownerId, meeting.teamId)).filter((p) => p.userId !== ownerId);
    const ownerName = (await deps.profilesOf([ownerId])).get(ownerId)?.name ?? 'Someone';
    for (const mention of findMentions(source.segments, teammates)) {
      await notify(mention.userId, {
        kind: 'mention',
        title: `You were mentioned in “${meeting.title}”`,
        body: `${ownerName}’s meeting: “${mention.text}”`,
        link: meetingPath(meetingId, mention.startMs),
        dedupeKey: `mention:${meetingId}`,
        aboutUserId: ownerId,
      });
    }
  };

  const emailTranscriptionComplete = (ownerId: string, meetingId: string, title: string) =>
    emailIfChosen(ownerId, 'transcriptionComplete', (to, f) =>
      transcriptionCompleteEmail({ to: to.email, title, meetingUrl: `${base}${meetingPath(meetingId)}`, footer: f }),
    );

  /**
   * One email per recording: when the person wants the AI Insights Ready email and notes follow on
   * their own, that email (minutes later, with the notes) is the one they get; the transcript's is
   * sent only if the notes fail (notesFailed).
   */
  const insightsEmailFollows = async (ownerId: string, meetingId: string): Promise<boolean> => {
    if (!(await choicesOf(ownerId)).aiInsightsReady) return false;
    const header = await deps.meetings.transcriptHeader(meetingId);
    return header !== undefined && notesWantedAutomatically(await deps.settings.automaticNotes(ownerId), header.options);
  };

  const transcriptionComplete = async (meetingId: string, ownerId: string): Promise<void> => {
    const meeting = await deps.meetings.get(ownerId, meetingId);
    if (!meeting || meeting.isSample) return;
    if (!(await insightsEmailFollows(ownerId, meetingId))) await emailTranscriptionComplete(ownerId, meetingId, meeting.title);
    await mentionsIn(meetingId, ownerId, meeting);
  };

  /** Notes written on their own failed: the transcript's email that waited for them goes now. */
  const notesFailed = async (failed: { meetingId: string; ownerId: string; explicit: boolean }): Promise<void> => {
    if (failed.explicit || !(await choicesOf(failed.ownerId)).aiInsightsReady) return;
    const meeting = await deps.meetings.get(failed.ownerId, failed.meetingId);
    if (!meeting || meeting.isSample || meeting.status !== 'ready') return;
    await emailTranscriptionComplete(failed.ownerId, failed.meetingId, meeting.title);
  };

  const notesReady = async (ready: NotesReady): Promise<void> => {
    const meeting = await deps.meetings.get(ready.ownerId, ready.meetingId);
    if (!meeting || meeting.isSample) return;
    if (!ready.explicit) {
      const count = (kind: NotesReady['items'][number]['kind']) => ready.items.filter((i) => i.kind === kind).length;
      await emailIfChosen(ready.ownerId, 'aiInsightsReady', (to, f) =>
        insightsReadyEmail({
          to: to.email,
          title: meeting.title,
          meetingUrl: `${base}${meetingPath(ready.meetingId)}`,
          counts: { keyPoints: count('key_point'), actionItems: count('action_item'), decisions: count('decision') },
          footer: f,
        }),
      );
    }
    const actions = ready.items.filter((i) => i.kind === 'action_item' && i.assignee);
    if (actions.length === 0) return;
    const people = await peopleOfMeeting(ready.ownerId, meeting.teamId);
    for (const item of actions) {
      const userId = resolveOwner(item.assignee, people);
      if (!userId) continue;
      // The owner's own items are in the AI Insights Ready email already: the bell only.
      await tellAssignee(userId, ready.ownerId, meeting, { text: item.text, startMs: item.startMs, assignedBy: null, email: userId !== ready.ownerId });
    }
  };

  /**
   * An action item's assignee is told under the bell and by email (both under Settings ›
   * Notifications › Action Items), once per item and person: the dedupe key is the item's words.
   */
  const tellAssignee = async (
    userId: string,
    ownerId: string,
    meeting: MeetingRecord,
    /** `assignedBy`: who gave it, or null when the notes found it; `email`: whether it is emailed too. */
    item: { text: string; startMs?: number; assignedBy: string | null; email: boolean },
  ): Promise<void> => {
    const link = meetingPath(meeting.id, item.startMs);
    const told = await notify(userId, {
      kind: 'action_item',
      title: `Action item for you in “${meeting.title}”`,
      body: item.text,
      link,
      dedupeKey: `action:${meeting.id}:${hashKey(item.text.trim().toLowerCase())}`,
      aboutUserId: ownerId,
    });
    if (!told || !item.email) return;
    await emailIfChosen(userId, 'actionItems', (to, f) =>
      actionItemEmail({ to: to.email, title: meeting.title, item: item.text, assignedBy: item.assignedBy, meetingUrl: `${base}${link}`, footer: f }),
    );
  };

  /** The owner gave an item to someone who reads the meeting (themselves, or a member of the team it is shared with): not when it is the one who assigned it. */
  const actionItemAssigned = async (assigned: ActionItemAssigned): Promise<void> => {
    const meeting = await deps.meetings.get(assigned.ownerId, assigned.meetingId);
    if (!meeting || meeting.isSample) return;
    const userId = resolveOwner(assigned.assignee, await peopleOfMeeting(assigned.ownerId, meeting.teamId));
    if (!userId || userId === assigned.actorId) return;
    const assignedBy = assigned.actorId ? (await deps.profilesOf([assigned.actorId])).get(assigned.actorId)?.name : undefined;
    await tellAssignee(userId, assigned.ownerId, meeting, { text: assigned.text, assignedBy: assignedBy || 'Someone', email: true });
  };

  const teamInvitationSent = async (sent: TeamInvitationSent): Promise<void> => {
    const userId = await deps.userIdOfEmail(sent.email);
    if (!userId) return;
    const url = new URL(sent.url);
    const inviter = (sent.inviterId && (await deps.profilesOf([sent.inviterId])).get(sent.inviterId)?.name) || 'Someone';
    await notify(userId, {
      kind: 'team_invitation',
      title: `${inviter} invited you to ${sent.teamName}`,
      body: `Join the team “${sent.teamName}” to see what its members share.`,
      link: url.pathname,
      dedupeKey: `invitation:${sent.invitationId}`,
    });
  };

  /** A teammate asks to keep a profile of the person's voice: in the bell and by email, whatever the choices. */
  const voiceConsentRequested = async (request: { consentId: string; personId: string; requesterId: string | null; meetingTitle: string }): Promise<void> => {
    const people = await deps.profilesOf([request.personId, ...(request.requesterId ? [request.requesterId] : [])]);
    const person = people.get(request.personId);
    if (!person) return;
    const requester = (request.requesterId && people.get(request.requesterId)?.name) || 'A teammate';
    const link = '/settings?tab=privacy#voice-profile';
    const fresh = await notify(request.personId, {
      kind: 'voice_consent',
      title: `${requester} asks to keep a voice profile of you`,
      body: `From “${request.meetingTitle}”. Nothing is kept unless you accept.`,
      link,
      dedupeKey: `voice-consent:${request.consentId}`,
    });
    // Once per request: a delivery run again after the bell has it sends no second email.
    if (fresh) await deps.sendEmail(voiceConsentEmail({ to: person.email, requester, meetingTitle: request.meetingTitle, settingsUrl: `${base}${link}` }));
  };

  /**
   * Meeting Reminders: an event of the person's calendar starts soon (`calendar.event_starting`). Not
   * when it was cancelled (gone from the calendar), moved (its new start has its own reminder) or has
   * started by the time this runs (a delivery retried late).
   */
  const meetingReminder = async (due: { userId: string; eventId: string; start: string }): Promise<void> => {
    if (!(await choicesOf(due.userId)).meetingReminders) return;
    const event = await deps.upcomingEvent(due.userId, due.eventId);
    if (!event || event.start !== due.start) return;
    const start = new Date(event.start);
    const minutes = Math.max(1, Math.round((start.getTime() - deps.now().getTime()) / 60_000));
    const timeZone = await deps.settings.timeZoneOf(due.userId);
    await emailIfChosen(due.userId, 'meetingReminders', (to, f) =>
      meetingReminderEmail({
        to: to.email,
        title: event.title,
        start,
        end: new Date(event.end),
        timeZone,
        minutes,
        attendees: event.attendees,
        recordUrl: `${base}/record?event=${encodeURIComponent(event.id)}`,
        footer: f,
      }),
    );
  };

  /** The person's Team Activity digest for today, if it is on, due, not sent yet today, and there is news. */
  const digestFor = async (userId: string): Promise<boolean> => {
    if (!(await choicesOf(userId)).teamActivity) return false;
    const now = deps.now();
    const { day, hour } = localClock(now, await deps.settings.timeZoneOf(userId));
    if (hour < DIGEST_HOUR) return false;
    const last = await lastDigestAt(db, userId);
    if (last && localClock(new Date(last), await deps.settings.timeZoneOf(userId)).day === day) return false;
    const since = last ?? new Date(now.getTime() - DIGEST_LOOKBACK_MS).toISOString();
    const teams: { name: string; entries: TeamActivity[] }[] = [];
    for (const team of await deps.teams.list(userId)) {
      const entries = (await deps.teams.activity(userId, team.id, DIGEST_ENTRIES_PER_TEAM)).filter((e) => e.at > since && e.actor.id !== userId);
      if (entries.length > 0) teams.push({ name: team.name, entries: entries.reverse() });
    }
    if (teams.length === 0) return false;
    // The day is claimed before the email goes: a second run (another worker, a retry) finds it taken.
    if (!(await claimDigestDay(db, userId, day, now.toISOString()))) return false;
    try {
      const sent = await emailIfChosen(userId, 'teamActivity', (to, f) => teamDigestEmail({ to: to.email, teams, teamUrl: `${base}/team`, footer: f }));
      if (!sent) await releaseDigestDay(db, userId, day);
      return sent;
    } catch (error) {
      await releaseDigestDay(db, userId, day);
      throw error;
    }
  };

  /** Every person with Team Activity on gets today's digest (the job; safe to run any number of times). */
  const sendDigests = async (): Promise<number> => {
    let sent = 0;
    let failed: unknown;
    for (const userId of await deps.settings.notificationChoosers('teamActivity')) {
      try {
        if (await digestFor(userId)) sent += 1;
      } catch (error) {
        failed = error;
        log.warn({ err: error, userId }, 'a Team Activity digest could not be sent');
      }
    }
    if (failed) throw failed; // retried by the queue: those sent already are claimed for the day
    return sent;
  };

  const digests = deps.jobs.define<z.infer<typeof DigestPayload>>({
    name: 'notification-digest',
    label: 'team activity digest',
    payload: DigestPayload,
    stages: [],
    keyOf: () => 'team-activity',
    concurrency: 1,
    maxAttempts: 3,
    retryDelayMs: 5 * 60_000,
    classify: (error) => ({
      retryable: true,
      message: `Team Activity digests could not all be sent: ${error instanceof Error ? error.message : String(error)}`,
    }),
    run: async () => {
      await sendDigests();
    },
    onSettled: async () => undefined,
  });

  let schedule: ReturnType<typeof setInterval> | undefined;
  const queueDigests = () => bestEffort('digest-queue', digests.enqueue({}), log);

  return {
    /** An invoice of the person's could not be paid: in the bell, once per invoice, whatever the choices (the email is billing's). */
    paymentFailed: async (failed: { userId: string; invoiceId: string; amountDue: number; currency: string }): Promise<void> => {
      await notify(failed.userId, {
        kind: 'billing',
        title: 'A payment did not go through',
        body: `The payment of ${formatAmount(failed.amountDue, failed.currency)} for your subscription failed. Update your card in Settings › Billing.`,
        link: '/settings?tab=billing',
        dedupeKey: `invoice:${failed.invoiceId}`,
      });
    },
    /** An integration the person set up stopped working (a webhook endpoint disabled, a channel refusing posts): always in the bell, once per dedupe key. */
    integrationFailed: async (userId: string, input: { title: string; body: string; link: string; dedupeKey: string }): Promise<void> => {
      await notify(userId, { kind: 'integration', ...input });
    },

    list: async (userId: string, limit: number): Promise<NotificationList> => ({
      items: (await notificationsOf(db, userId, Math.min(limit, MAX_NOTIFICATIONS_LISTED))).map(present),
      unreadCount: await unreadCountOf(db, userId),
    }),
    markRead: async (userId: string, body: MarkNotificationsRead): Promise<{ unreadCount: number }> => {
      await markRead(db, userId, 'all' in body ? 'all' : body.ids, nowIso());
      return { unreadCount: await unreadCountOf(db, userId) };
    },

    // The ports other features hand events to (deps.ts).
    transcriptionComplete,
    notesFailed,
    /** A transcript became readable by a team later (an import into it, a share): its mentions. */
    teamTranscript: (meetingId: string, ownerId: string) => mentionsIn(meetingId, ownerId),
    notesReady,
    actionItemAssigned,
    teamInvitationSent,
    voiceConsentRequested,
    meetingReminder,

    /** What an unsubscribe link would turn off, or undefined when the link is forged, altered or revoked. */
    unsubscribeTarget: async (token: string): Promise<{ userId: string; choice: EmailChoice; label: string; email: string } | undefined> => {
      const claim = deps.unsubscribeTokens.read(token);
      if (!claim || (await currentUnsubscribeKey(db, claim.userId)) !== claim.keyId) return undefined;
      const person = (await deps.profilesOf([claim.userId])).get(claim.userId);
      if (!person) return undefined;
      return { userId: claim.userId, choice: claim.choice, label: EMAIL_CHOICE_LABELS[claim.choice], email: person.email };
    },
    /** Turns the choice off (Settings › Notifications shows it off from then on). */
    unsubscribe: async (target: { userId: string; choice: EmailChoice }): Promise<void> => {
      await deps.settings.update({ id: target.userId }, 'notifications', { [target.choice]: false });
      log.info({ userId: target.userId, choice: target.choice }, 'an email choice turned off through its unsubscribe link');
    },

    /** The daily digest: queued at start and hourly (each run sends only what is due). */
    queueDigests,
    startDigests: () => {
      void queueDigests();
      schedule = setInterval(() => void queueDigests(), 60 * 60 * 1000);
      schedule.unref();
    },
    stopDigests: () => clearInterval(schedule),

    /** Delete All Data / Delete Account: the person's notifications and those about their meetings go, and their unsubscribe links stop working. */
    removeFor: (userId: string) => deleteAllOf(db, userId),
  };
}
