import { EMAIL_CHOICE_LABELS, type EmailChoice } from '#shared/contracts/notifications.ts';
import { activityWords, type TeamActivity } from '#shared/contracts/teams.ts';
import { escapeHtml } from '#server/lib/escape-html.ts';

/** A notification email as the mailer sends it: with RFC 2369/8058 headers for the mail client's own Unsubscribe. */
export type NotificationEmail = {
  kind: 'notification';
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
  headers: Record<string, string>;
};

/** Where an email leads and how the person stops it: the unsubscribe link and the settings tab. */
export type EmailFooter = { choice: EmailChoice; unsubscribeUrl: string; settingsUrl: string };

type Paragraph = string | { link: string; label: string };

function compose(input: { to: string; subject: string; paragraphs: Paragraph[]; link: string; footer: EmailFooter }): NotificationEmail {
  const { footer } = input;
  const why = `You get this email because “${EMAIL_CHOICE_LABELS[footer.choice]}” is on in your Parley notification settings.`;
  const text = [
    ...input.paragraphs.map((p) => (typeof p === 'string' ? p : `${p.label}: ${p.link}`)),
    '',
    '—',
    why,
    `Unsubscribe from these emails: ${footer.unsubscribeUrl}`,
    `Change your notification settings: ${footer.settingsUrl}`,
  ].join('\n\n');
  const body = input.paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(p.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(p.label)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${body}
<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px">
<p style="color:#555;font-size:13px">${escapeHtml(why)} <a href="${escapeHtml(footer.unsubscribeUrl)}">Unsubscribe</a> · <a href="${escapeHtml(footer.settingsUrl)}">Notification settings</a></p>
</body></html>`;
  return {
    kind: 'notification',
    to: input.to,
    subject: input.subject,
    text,
    html,
    link: input.link,
    // RFC 2369 names the link; RFC 8058 says a POST to it unsubscribes in one click, without a page.
    headers: { 'List-Unsubscribe': `<${footer.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export function transcriptionCompleteEmail(input: { to: string; title: string; meetingUrl: string; footer: EmailFooter }): NotificationEmail {
  return compose({
    to: input.to,
    subject: `Transcript ready: ${input.title}`,
    paragraphs: [`The transcript of “${input.title}” is ready to read.`, { link: input.meetingUrl, label: 'Open the meeting' }],
    link: input.meetingUrl,
    footer: input.footer,
  });
}

/** An action item given to the person (Settings › Notifications › Action Items): by someone, or (null) by the meeting's notes. */
export function actionItemEmail(input: {
  to: string;
  title: string;
  item: string;
  assignedBy: string | null;
  meetingUrl: string;
  footer: EmailFooter;
}): NotificationEmail {
  const intro = input.assignedBy
    ? `${input.assignedBy} gave you an action item in “${input.title}”:`
    : `The notes of “${input.title}” name you for an action item:`;
  return compose({
    to: input.to,
    subject: `Action item for you: ${input.item.length > 80 ? `${input.item.slice(0, 79).trimEnd()}…` : input.item}`,
    paragraphs: [intro, input.item, { link: input.meetingUrl, label: 'Open the meeting' }],
    link: input.meetingUrl,
    footer: input.footer,
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Attendees named in a reminder; the rest are counted. */
const MAX_ATTENDEES_NAMED = 20;

/**
 * Settings › Notifications › Meeting Reminders: an event of the person's calendar starts soon, told
 * in their time zone, with Record (the record page, filled from the event).
 */
export function meetingReminderEmail(input: {
  to: string;
  title: string;
  start: Date;
  end: Date;
  timeZone: string;
  /** Whole minutes until it starts (at least 1). */
  minutes: number;
  attendees: readonly { name: string; email: string | null }[];
  recordUrl: string;
  footer: EmailFooter;
}): NotificationEmail {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: input.timeZone, weekday: 'long', day: 'numeric', month: 'long' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: input.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const names = input.attendees.map((a) => (a.email && a.name !== a.email ? `${a.name} <${a.email}>` : a.name || (a.email ?? ''))).filter(Boolean);
  const more = names.length - MAX_ATTENDEES_NAMED;
  const attendees =
    names.length === 0
      ? 'No attendees are listed.'
      : `Attendees: ${names.slice(0, MAX_ATTENDEES_NAMED).join(', ')}${more > 0 ? ` and ${plural(more, 'other', 'others')}` : ''}.`;
  const when = `${day.format(input.start)}, ${time.format(input.start)}–${time.format(input.end)} (${input.timeZone})`;
  return compose({
    to: input.to,
    subject: `In ${plural(input.minutes, 'minute', 'minutes')}: ${input.title} at ${time.format(input.start)}`,
    paragraphs: [`“${input.title}” starts in ${plural(input.minutes, 'minute', 'minutes')}: ${when}.`, attendees, { link: input.recordUrl, label: 'Record' }],
    link: input.recordUrl,
    footer: input.footer,
  });
}

export function insightsReadyEmail(input: {
  to: string;
  title: string;
  meetingUrl: string;
  counts: { keyPoints: number; actionItems: number; decisions: number };
  footer: EmailFooter;
}): NotificationEmail {
  const { keyPoints, actionItems, decisions } = input.counts;
  const found = `${plural(keyPoints, 'key point', 'key points')}, ${plural(actionItems, 'action item', 'action items')} and ${plural(decisions, 'decision', 'decisions')}`;
  return compose({
    to: input.to,
    subject: `AI insights ready: ${input.title}`,
    paragraphs: [`The notes of “${input.title}” are ready: ${found}.`, { link: input.meetingUrl, label: 'Read the notes' }],
    link: input.meetingUrl,
    footer: input.footer,
  });
}

/** One line of the digest: who did what (the team's activity, as the Activity tab tells it). */
export function activityLine(entry: TeamActivity): string {
  const { before, title, after } = activityWords(entry);
  return [entry.actor.name, before, title === null ? '' : `“${title}”`, after].filter(Boolean).join(' ');
}

export function teamDigestEmail(input: {
  to: string;
  teams: { name: string; entries: TeamActivity[] }[];
  teamUrl: string;
  footer: EmailFooter;
}): NotificationEmail {
  const total = input.teams.reduce((n, team) => n + team.entries.length, 0);
  const sections = input.teams.map((team) => `${team.name}\n${team.entries.map((entry) => `• ${activityLine(entry)}`).join('\n')}`);
  return compose({
    to: input.to,
    subject: `Team activity: ${plural(total, 'update', 'updates')}`,
    paragraphs: ['What happened in your teams since the last digest:', ...sections, { link: input.teamUrl, label: 'Open your team' }],
    link: input.teamUrl,
    footer: input.footer,
  });
}

/**
 * A teammate named a speaker after the person and asks to keep a profile of their voice. Sent
 * whatever the notification choices (a question about the person's own data, not news), so it
 * carries no unsubscribe link: nothing is kept unless they accept.
 */
export function voiceConsentEmail(input: { to: string; requester: string; meetingTitle: string; settingsUrl: string }): NotificationEmail {
  const lines = [
    `${input.requester} named a speaker in “${input.meetingTitle}” after you and asks whether Parley may keep a voice profile of you, so that later meetings name you.`,
    'A voice profile is numbers that describe your voice, never the recording. Nothing is kept unless you accept, and you can delete it at any time in Settings.',
  ];
  const text = [...lines, `Accept or decline: ${input.settingsUrl}`].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.settingsUrl)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Accept or decline</a></p>
</body></html>`;
  return {
    kind: 'notification',
    to: input.to,
    subject: `${input.requester} asks to keep a voice profile of you`,
    text,
    html,
    link: input.settingsUrl,
    headers: {},
  };
}
