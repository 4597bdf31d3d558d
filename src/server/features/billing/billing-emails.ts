import { escapeHtml } from '#server/lib/escape-html.ts';

/** An email to send (the installation's mailer: SMTP or the development outbox). */
export type BillingEmail = { to: string; subject: string; text: string; html: string; link: string };

const PAST_DUE_EMAIL_SUBJECT = 'Your Parley payment did not go through';

/**
 * A subscription's payment failed and Stripe is trying again (past_due): what happened, that the
 * plan stays meanwhile, and where to change the card (Settings › Billing, then the Customer Portal).
 */
export function pastDueEmail(input: { to: string; planName: string; link: string }): BillingEmail {
  const intro = `The latest payment for your Parley ${input.planName} subscription did not go through. Stripe will try the card again over the next few days, and your ${input.planName} plan stays as it is meanwhile.`;
  const action = 'Update your card';
  const after = `To change the card, open Settings › Billing and choose “View invoice history”. If every try fails, the subscription ends and your account moves to the Free plan.`;
  const text = [intro, '', `${action}: ${input.link}`, '', after].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(after)}</p>
</body></html>`;
  return { to: input.to, subject: PAST_DUE_EMAIL_SUBJECT, text, html, link: input.link };
}

const PAYMENT_FAILED_EMAIL_SUBJECT = 'A Parley invoice could not be paid';

/**
 * An invoice's payment failed (Stripe's `invoice.payment_failed`), once per invoice: how much, that
 * Stripe tries again, and where to change the card (Settings › Billing, then the Customer Portal).
 */
export function paymentFailedEmail(input: { to: string; amount: string; link: string }): BillingEmail {
  const intro = `The payment of ${input.amount} for your Parley subscription's latest invoice did not go through. Stripe will try the card again over the next few days.`;
  const action = 'Update your card';
  const after = `To change the card or pay the invoice, open Settings › Billing and choose “Update payment method”. If every try fails, the subscription ends and your account moves to the Free plan.`;
  const text = [intro, '', `${action}: ${input.link}`, '', after].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(after)}</p>
</body></html>`;
  return { to: input.to, subject: PAYMENT_FAILED_EMAIL_SUBJECT, text, html, link: input.link };
}
