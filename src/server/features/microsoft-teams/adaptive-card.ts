import { formatDue, type NotesDigest } from '#server/lib/chat-channels/notes-digest.ts';

/** What a Teams Workflows webhook takes: a message with one Adaptive Card attachment. */
export type TeamsCardMessage = {
  type: 'message';
  attachments: { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }[];
};
type AdaptiveCard = { $schema: string; type: 'AdaptiveCard'; version: '1.4'; msteams: { width: 'Full' }; body: unknown[]; actions: unknown[] };

// A Teams message holds about 28 KB: each part is bounded so a long meeting still posts.
const MAX_TEXT = 4000;
const MAX_ITEMS = 30;
const clip = (text: string, max = MAX_TEXT): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const heading = (text: string) => ({ type: 'TextBlock', text, weight: 'Bolder', spacing: 'Medium', wrap: true });
const bullets = (lines: string[]) => {
  const shown = lines.slice(0, MAX_ITEMS).map((line) => `- ${clip(line, 500)}`);
  if (lines.length > MAX_ITEMS) shown.push(`- …and ${lines.length - MAX_ITEMS} more in Parley`);
  return { type: 'TextBlock', text: shown.join('\n'), wrap: true };
};

const card = (body: unknown[], actions: unknown[] = []): TeamsCardMessage => ({
  type: 'message',
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.4',
        msteams: { width: 'Full' },
        body,
        actions,
      },
    },
  ],
});

/** The notes of a meeting as an Adaptive Card: title, date, participants, summary, action items, decisions, link. */
export function teamsNotesCard(digest: NotesDigest): TeamsCardMessage {
  const facts = [{ title: 'Date', value: digest.when }];
  if (digest.participants.length > 0) facts.push({ title: 'Participants', value: clip(digest.participants.join(', '), 1000) });
  const body: unknown[] = [
    { type: 'TextBlock', text: 'Meeting notes are ready', isSubtle: true, spacing: 'None', wrap: true },
    { type: 'TextBlock', text: clip(digest.title, 200), size: 'Large', weight: 'Bolder', wrap: true },
    { type: 'FactSet', facts },
  ];
  if (digest.summary) body.push(heading('Summary'), { type: 'TextBlock', text: clip(digest.summary), wrap: true });
  if (digest.actionItems.length > 0)
    body.push(
      heading('Action items'),
      bullets(digest.actionItems.map((item) => `${item.text} — **${item.assignee ?? 'Unassigned'}**${item.due ? ` · due ${formatDue(item.due)}` : ''}`)),
    );
  if (digest.decisions.length > 0) body.push(heading('Decisions'), bullets(digest.decisions));
  if (!digest.summary && digest.actionItems.length === 0 && digest.decisions.length === 0)
    body.push({ type: 'TextBlock', text: 'No summary, action items or decisions were found.', isSubtle: true, wrap: true });
  return card(body, [{ type: 'Action.OpenUrl', title: digest.linkIsShare ? 'Open the shared notes' : 'Open in Parley', url: digest.link }]);
}

export const teamsTestCard = (): TeamsCardMessage =>
  card([{ type: 'TextBlock', text: 'Parley is connected: meeting notes will be posted here when they are ready.', weight: 'Bolder', wrap: true }]);
