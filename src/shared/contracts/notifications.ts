import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';
import type { NotificationSettings } from './settings.ts';

/**
 * Notifications (issue 11 point 5): in-app notifications (the bell in the app shell) and the
 * unsubscribe links of Parley's notification emails. Which are sent follows the person's
 * Settings › Notifications choices at the moment each would be sent.
 */

/** The in-app kinds, each behind its own Settings › Notifications › In-App choice. */
export const NOTIFICATION_KINDS = ['action_item', 'mention', 'team_invitation', 'integration', 'voice_consent', 'billing'] as const;
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

/** The choice that turns each in-app kind on or off; null: always sent (an integration the person set up stopped working). */
export const CHOICE_OF_KIND: Record<NotificationKind, keyof NotificationSettings | null> = {
  action_item: 'actionItems',
  mention: 'mentions',
  team_invitation: 'teamInvitations',
  integration: null,
  // A question about the person's own voice: asked whatever their choices, or nothing is ever kept.
  voice_consent: null,
  // A payment of theirs failed: Settings › Notifications has no switch for the account's own bills (spec §2), as with its email.
  billing: null,
};

/**
 * The choices an email is sent under, each of which the email's unsubscribe link may turn off: the
 * email toggles, and Action Items, whose assignee is told under the bell and by email.
 */
export const EMAIL_CHOICES = ['meetingReminders', 'transcriptionComplete', 'aiInsightsReady', 'teamActivity', 'productUpdates', 'actionItems'] as const;
export const EmailChoiceSchema = z.enum(EMAIL_CHOICES);
export type EmailChoice = z.infer<typeof EmailChoiceSchema>;

/** How each email choice is named to people (the Notifications tab's labels). */
export const EMAIL_CHOICE_LABELS: Record<EmailChoice, string> = {
  meetingReminders: 'Meeting Reminders',
  transcriptionComplete: 'Transcription Complete',
  aiInsightsReady: 'AI Insights Ready',
  teamActivity: 'Team Activity',
  productUpdates: 'Product Updates',
  actionItems: 'Action Items',
};

export const NotificationSchema = z.object({
  id: z.uuid(),
  kind: NotificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** Where it leads in the app: a path of this site (`/meetings/<id>?t=…`, `/invite/<token>`). */
  link: z.string().check(z.startsWith('/')),
  createdAt: z.string(),
  /** When the person opened it or marked it read; null while unread. */
  readAt: z.nullable(z.string()),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** The newest notifications first, and how many of all of the person's are unread. */
export const NotificationListSchema = z.object({ items: z.array(NotificationSchema), unreadCount: z.number().check(z.int(), z.nonnegative()) });
export type NotificationList = z.infer<typeof NotificationListSchema>;

export const MAX_NOTIFICATIONS_LISTED = 50;
export const NotificationListQuerySchema = z.object({ limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_NOTIFICATIONS_LISTED)), 20) });

/** Marks read the notifications named (of the caller: others' ids change nothing), or all of them. */
export const MarkNotificationsReadSchema = z.union([
  z.strictObject({ ids: z.array(z.uuid()).check(z.minLength(1), z.maxLength(MAX_NOTIFICATIONS_LISTED)) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkNotificationsRead = z.infer<typeof MarkNotificationsReadSchema>;
export const UnreadCountSchema = z.object({ unreadCount: z.number().check(z.int(), z.nonnegative()) });

/** An unsubscribe link's token (signed by the server; names the person and one email choice). */
export const UnsubscribeQuerySchema = z.object({ token: z.string().check(z.minLength(1), z.maxLength(400)) });

export const notificationEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/notifications',
    query: NotificationListQuerySchema,
    response: NotificationListSchema,
    tag: 'notifications',
    summary: 'The caller’s in-app notifications, newest first, with the number unread',
  }),
  markRead: defineEndpoint({
    method: 'POST',
    path: '/api/v1/notifications/read',
    body: MarkNotificationsReadSchema,
    response: UnreadCountSchema,
    tag: 'notifications',
    summary: 'Marks the given notifications of the caller read ({ ids }), or all of them ({ all: true })',
  }),
  /** The page an email's unsubscribe link opens: says what it turns off, with a button to do it (no sign-in). */
  unsubscribePage: defineEndpoint({
    method: 'GET',
    path: '/api/v1/notifications/unsubscribe',
    query: UnsubscribeQuerySchema,
    response: 'file',
    auth: false,
    tag: 'notifications',
    summary: 'An HTML page confirming which email an unsubscribe link turns off; changes nothing',
  }),
  /** RFC 8058 one-click unsubscribe (List-Unsubscribe-Post), and the page's button. */
  unsubscribe: defineEndpoint({
    method: 'POST',
    path: '/api/v1/notifications/unsubscribe',
    query: UnsubscribeQuerySchema,
    response: 'file',
    auth: false,
    tag: 'notifications',
    summary: 'Turns off the email choice the token names (RFC 8058 one-click: body List-Unsubscribe=One-Click); answers an HTML page',
  }),
};
