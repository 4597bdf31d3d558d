import type { InvitedRole } from '#shared/contracts/teams.ts';
import { escapeHtml } from '#server/lib/escape-html.ts';

/** An email to send (the installation's mailer: SMTP or the development outbox). */
export type OutgoingEmail = { to: string; subject: string; text: string; html: string; link: string };

/** Every invitation email's subject: the inviter's name and the team's are theirs to choose, so they stay out of it (the body names them). */
export const INVITATION_EMAIL_SUBJECT = 'You are invited to join a team on Parley';

/** The invitation email: who invites to which team with which role, the link, and when it stops working. */
export function invitationEmail(input: { to: string; teamName: string; inviter: string; role: InvitedRole; link: string; expiresAt: string }): OutgoingEmail {
  const subject = INVITATION_EMAIL_SUBJECT;
  const intro = `${input.inviter} invited you to join the team “${input.teamName}” on Parley as ${input.role === 'admin' ? 'an admin' : 'a member'}.`;
  const expiry = `The invitation works once and expires on ${new Date(input.expiresAt).toUTCString()}.`;
  const text = [intro, '', `Accept the invitation: ${input.link}`, '', 'You will be asked to sign in, or to create an account first.', expiry].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Accept the invitation</a></p>
<p style="color:#555;font-size:13px">You will be asked to sign in, or to create an account first. ${escapeHtml(expiry)}</p>
</body></html>`;
  return { to: input.to, subject, text, html, link: input.link };
}
