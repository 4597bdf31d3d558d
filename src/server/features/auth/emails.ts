import { escapeHtml } from '#server/lib/escape-html.ts';
import type { EmailKind, EmailMessage } from './mailer.ts';

type Copy = { subject: string; intro: string; action: string };

/** The texts of Parley's auth emails: a link back to the app and the same code to type. */
const COPY: Record<EmailKind, Copy> = {
  signup: {
    subject: 'Confirm your Parley account',
    intro: 'Welcome to Parley! Confirm your email address to finish creating your account.',
    action: 'Confirm my email',
  },
  recovery: {
    subject: 'Reset your Parley password',
    intro: 'Someone (hopefully you) asked to reset the password of your Parley account. If it was not you, ignore this email.',
    action: 'Reset my password',
  },
  magiclink: {
    subject: 'Your Parley sign-in link',
    intro: 'Use this link to sign in to Parley. It works once.',
    action: 'Sign in to Parley',
  },
  email_change: {
    subject: 'Confirm your new email address for Parley',
    intro: 'Confirm this address to make it the email of your Parley account. The change also needs a confirmation from the current address.',
    action: 'Confirm my new email',
  },
};

/**
 * The email to the current address when a change of address is asked for: it tells the owner, and
 * the change waits for its confirmation, so ignoring it is the undo.
 */
const emailChangeCurrentCopy = (from: string, to: string): Copy => ({
  subject: 'Confirm the change of your Parley email address',
  intro:
    `Someone (hopefully you) asked to change the email of your Parley account from ${from} to ${to}. ` +
    'The change happens only once both addresses confirm it. If it was not you, ignore this email: your address stays as it is. ' +
    'Then change your password, as whoever asked knew it.',
  action: 'Confirm the change',
});

export function composeEmail(input: {
  kind: EmailKind;
  to: string;
  otp: string;
  link: string;
  validHours: number;
  /** For email_change to the current address: the change it asks to confirm. */
  addressChange?: { from: string; to: string };
}): EmailMessage {
  const copy = input.addressChange ? emailChangeCurrentCopy(input.addressChange.from, input.addressChange.to) : COPY[input.kind];
  const validity = input.validHours >= 1 ? `${Math.round(input.validHours)} hour${input.validHours >= 2 ? 's' : ''}` : 'a short while';
  const text = [
    copy.intro,
    '',
    `${copy.action}: ${input.link}`,
    '',
    `Or enter this code: ${input.otp}`,
    '',
    `The link and the code work once and expire after ${validity}.`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(copy.intro)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(copy.action)}</a></p>
<p>Or enter this code: <strong style="font-size:18px;letter-spacing:2px">${escapeHtml(input.otp)}</strong></p>
<p style="color:#555;font-size:13px">The link and the code work once and expire after ${escapeHtml(validity)}.</p>
</body></html>`;
  return { kind: input.kind, to: input.to, subject: copy.subject, text, html, otp: input.otp, link: input.link };
}
