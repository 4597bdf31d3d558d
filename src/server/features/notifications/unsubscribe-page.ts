import { escapeHtml } from '#server/lib/escape-html.ts';

/**
 * The small pages an unsubscribe link shows, without the web app and without signing in: what the
 * link turns off with a button (GET changes nothing, so a mail scanner following links unsubscribes
 * no one), what was turned off, or that the link does not work.
 */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Parley</title>
<style>
  body { font-family: system-ui, sans-serif; line-height: 1.5; color: #111; background: #f6f6f7; margin: 0; }
  main { max-width: 32rem; margin: 10vh auto; background: #fff; border: 1px solid #e4e4e7; border-radius: 12px; padding: 2rem; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  button { font: inherit; padding: 0.6rem 1rem; border-radius: 6px; border: none; background: #111; color: #fff; cursor: pointer; }
  button:focus-visible, a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .muted { color: #52525b; font-size: 0.9rem; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
}

const settingsLink = (publicUrl: string) =>
  `<p class="muted">You can turn emails on or off at any time in <a href="${escapeHtml(`${publicUrl}/settings?tab=notifications`)}">Settings › Notifications</a>.</p>`;

export const confirmPage = (input: { label: string; email: string; publicUrl: string }): string =>
  page(
    'Unsubscribe from Parley emails',
    `<p>Stop sending “${escapeHtml(input.label)}” emails to ${escapeHtml(input.email)}?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>
${settingsLink(input.publicUrl)}`,
  );

export const donePage = (input: { label: string; email: string; publicUrl: string }): string =>
  page(
    'You are unsubscribed',
    `<p>“${escapeHtml(input.label)}” emails will no longer be sent to ${escapeHtml(input.email)}.</p>
${settingsLink(input.publicUrl)}`,
  );

export const invalidPage = (): string =>
  page(
    'This unsubscribe link does not work',
    `<p>The link is incomplete, was changed, or is no longer valid. Sign in to Parley and change your emails in Settings › Notifications.</p>`,
  );
