import { formatDue, formatMoment, type NotesDigest } from '#server/lib/chat-channels/notes-digest.ts';

/** A Slack message: `text` is the notification's and screen readers' fallback; `blocks` the layout. */
export type SlackMessage = { text: string; blocks: SlackBlock[] };
type SlackText = { type: 'mrkdwn' | 'plain_text'; text: string };
type SlackBlock = { type: 'header'; text: SlackText } | { type: 'section'; text: SlackText } | { type: 'context'; elements: SlackText[] } | { type: 'divider' };

// Block Kit's limits: a header's text 150 characters, a section's 3,000, 50 blocks a message.
const HEADER_MAX = 150;
const SECTION_MAX = 3000;
const MAX_BLOCKS = 50;

/** Slack's mrkdwn treats &, < and > as markup: escaped, a person's words stay words. */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const section = (text: string): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text: clip(text, SECTION_MAX) } });

/** Lines under a heading, in as many sections as they need (each within Slack's limit). */
function listSections(heading: string, lines: string[]): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  let current = `*${heading}*`;
  for (const line of lines) {
    const next = `${current}\n${clip(line, SECTION_MAX - 10)}`;
    if (next.length > SECTION_MAX) {
      blocks.push(section(current));
      current = clip(line, SECTION_MAX);
    } else current = next;
  }
  blocks.push(section(current));
  return blocks;
}

/** The notes of a meeting as Block Kit: title, date, participants, summary, action items, decisions, link. */
export function slackNotesMessage(digest: NotesDigest, intro = 'Meeting notes are ready'): SlackMessage {
  const blocks: SlackBlock[] = [{ type: 'header', text: { type: 'plain_text', text: clip(digest.title, HEADER_MAX) } }];
  const context = [`:spiral_calendar_pad: ${escapeMrkdwn(digest.when)}`];
  if (digest.participants.length > 0) context.push(`:busts_in_silhouette: ${escapeMrkdwn(digest.participants.join(', '))}`);
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(context.join('   '), SECTION_MAX) }] });
  if (digest.summary) blocks.push(section(`*Summary*\n${escapeMrkdwn(digest.summary)}`));
  if (digest.actionItems.length > 0)
    blocks.push(
      ...listSections(
        'Action items',
        digest.actionItems.map((item) => {
          const who = item.assignee ? ` — *${escapeMrkdwn(item.assignee)}*` : ' — _Unassigned_';
          const due = item.due ? ` · due ${formatDue(item.due)}` : '';
          return `• ${escapeMrkdwn(item.text)}${who}${due}`;
        }),
      ),
    );
  if (digest.decisions.length > 0)
    blocks.push(
      ...listSections(
        'Decisions',
        digest.decisions.map((d) => `• ${escapeMrkdwn(d)}`),
      ),
    );
  if (!digest.summary && digest.actionItems.length === 0 && digest.decisions.length === 0)
    blocks.push(section('_No summary, action items or decisions were found._'));
  blocks.push(section(`<${digest.link}|${digest.linkIsShare ? 'Open the shared notes' : 'Open the meeting in Parley'}>`));
  const counts = [
    `${digest.actionItems.length} action item${digest.actionItems.length === 1 ? '' : 's'}`,
    `${digest.decisions.length} decision${digest.decisions.length === 1 ? '' : 's'}`,
  ];
  return { text: `${intro}: ${digest.title} (${digest.when}), ${counts.join(', ')}. ${digest.link}`, blocks: blocks.slice(0, MAX_BLOCKS - 1) };
}

/**
 * The notes with the transcript after them as text blocks, for a webhook (which cannot upload
 * files): as much as fits in one message, then a line saying where the rest is.
 */
export function slackTranscriptMessage(digest: NotesDigest): { message: SlackMessage; truncated: boolean } {
  const message = slackNotesMessage(digest, 'Shared from Parley');
  const room = MAX_BLOCKS - message.blocks.length - 3;
  const lines = digest.transcript.map((s) => `*${escapeMrkdwn(s.speaker)}* (${formatMoment(s.startMs)}): ${escapeMrkdwn(s.text)}`);
  const sections = lines.length > 0 ? listSections('Transcript', lines) : [section('*Transcript*\n_The transcript is empty._')];
  const truncated = sections.length > room;
  const blocks = [...message.blocks, { type: 'divider' } as const, ...sections.slice(0, room)];
  if (truncated)
    blocks.push(
      section(
        `_The transcript is longer than one Slack message holds. The rest is in Parley: <${digest.link}|open the meeting>. Add to Slack to send it as a file._`,
      ),
    );
  return { message: { text: message.text, blocks }, truncated };
}

export const slackTestMessage = (): SlackMessage => ({
  text: 'Parley is connected: meeting notes will be posted here when they are ready.',
  blocks: [section(':white_check_mark: *Parley is connected.* Meeting notes will be posted here when they are ready.')],
});
