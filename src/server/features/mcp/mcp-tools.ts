import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TRACKER_STATUSES } from '#shared/contracts/tracker.ts';
import { notFound } from '#server/lib/app-error.ts';
import type { AskService } from '../ask/ask.service.ts';
import type { MeetingsService } from '../meetings/meetings.service.ts';
import type { NotesService } from '../notes/notes.service.ts';

export type McpDeps = {
  meetings: Pick<MeetingsService, 'list' | 'read'>;
  notes: Pick<NotesService, 'ofMeeting' | 'actionItemTracker'>;
  ask: Pick<AskService, 'ask'>;
  publicUrl: string;
  version: string;
};

/** What a model reads at most of one transcript (a few hours of talk). */
const MAX_TRANSCRIPT_CHARS = 200_000;

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};
const day = (iso: string) => iso.slice(0, 10);
const text = (body: string) => ({ content: [{ type: 'text' as const, text: body }] });

/**
 * The MCP tools over one person's meetings: each reads through the same services as the API (so
 * the same access rules: their own meetings and their teams'), and answers text a model can read,
 * every meeting with its title and a link into Parley.
 */
export function createMcpServer(userId: string, deps: McpDeps): McpServer {
  const link = (meetingId: string, atMs?: number) =>
    `${deps.publicUrl}/meetings/${encodeURIComponent(meetingId)}${atMs === undefined ? '' : `?t=${Math.max(0, Math.round(atMs))}`}`;
  const server = new McpServer(
    { name: 'parley', version: deps.version },
    { instructions: "Parley holds the person's meeting recordings, transcripts and notes. Cite meetings by title with their link." },
  );
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'search_meetings',
    {
      title: 'Search meetings',
      description: 'Searches the titles, transcripts, summaries, action items and decisions of the meetings the person may read; newest matches first.',
      inputSchema: { query: z.string().trim().min(1).max(200).describe('Words to look for') },
      annotations: readOnly,
    },
    async ({ query }) => {
      const page = await deps.meetings.list(userId, { q: query, page: 1, pageSize: 10 });
      if (page.items.length === 0) return text(`No meeting matches “${query}”.`);
      const lines = page.items.map((m, i) => {
        const matches = (m.matches ?? [])
          .slice(0, 3)
          .map((hit) => `   - ${hit.kind}${hit.speaker ? ` (${hit.speaker})` : ''}: ${hit.snippet.map((part) => part.text).join('')}`);
        return [`${i + 1}. ${m.title} — ${day(m.startedAt)} — ${link(m.id)} (meetingId ${m.id})`, ...(m.summary ? [`   ${m.summary}`] : []), ...matches].join(
          '\n',
        );
      });
      return text(`${page.total}${page.totalIsAtLeast ? '+' : ''} meeting(s) match “${query}”:\n\n${lines.join('\n\n')}`);
    },
  );

  server.registerTool(
    'get_meeting',
    {
      title: 'Get meeting notes',
      description: "A meeting's details and notes: summary, key points, action items (owner, due date, status) and decisions.",
      inputSchema: { meetingId: z.uuid().describe('The meeting id, from search_meetings') },
      annotations: readOnly,
    },
    async ({ meetingId }) => {
      const meeting = await deps.meetings.read(userId, meetingId);
      if (!meeting) throw notFound('Meeting');
      const { insights, notes } = await deps.notes.ofMeeting(meeting.id, meeting.transcriptRevision);
      const of = (kind: string) => insights.filter((i) => i.kind === kind && i.status !== 'dismissed');
      const section = (title: string, items: string[]) => (items.length === 0 ? [] : [`## ${title}`, ...items, '']);
      const body = [
        `# ${meeting.title}`,
        `Date: ${day(meeting.startedAt)} · Duration: ${clock(meeting.durationSeconds * 1000)} · Status: ${meeting.status}`,
        `Participants: ${meeting.participants.join(', ') || 'none recorded'}`,
        `Link: ${link(meeting.id)}`,
        '',
        ...section('Summary', meeting.summary ? [meeting.summary] : []),
        ...section(
          'Key points',
          of('key_point').map((i) => `- ${i.text} (${link(meeting.id, i.startMs)})`),
        ),
        ...section(
          'Action items',
          of('action_item').map(
            (i) =>
              `- [${i.status === 'done' ? 'x' : ' '}] ${i.text} — ${i.assignee ?? 'unassigned'}${i.due ? `, due ${i.due}` : ''} (${link(meeting.id, i.startMs)})`,
          ),
        ),
        ...section(
          'Decisions',
          of('decision').map((i) => `- ${i.text} (${link(meeting.id, i.startMs)})`),
        ),
        ...(insights.length === 0 ? [`Notes: ${notes.status}${notes.failureReason ? ` — ${notes.failureReason}` : ''}`] : []),
      ];
      return text(body.join('\n').trim());
    },
  );

  server.registerTool(
    'get_transcript',
    {
      title: 'Get transcript',
      description: "A meeting's transcript, one line per utterance: [time] speaker: words.",
      inputSchema: { meetingId: z.uuid().describe('The meeting id, from search_meetings') },
      annotations: readOnly,
    },
    async ({ meetingId }) => {
      const meeting = await deps.meetings.read(userId, meetingId);
      if (!meeting) throw notFound('Meeting');
      const names = new Map(meeting.speakers.map((s) => [s.id, s.displayName ?? s.label]));
      let body = `# ${meeting.title} — transcript\nLink: ${link(meeting.id)}\n\n`;
      if (meeting.segments.length === 0) body += 'This meeting has no transcript yet.';
      for (const segment of meeting.segments) {
        const line = `[${clock(segment.startMs)}] ${segment.speakerId ? (names.get(segment.speakerId) ?? 'Unknown') : 'Unknown'}: ${segment.text}\n`;
        if (body.length + line.length > MAX_TRANSCRIPT_CHARS) {
          body += `… (cut here: the rest is at ${link(meeting.id, segment.startMs)})`;
          break;
        }
        body += line;
      }
      return text(body.trim());
    },
  );

  server.registerTool(
    'list_action_items',
    {
      title: 'List action items',
      description: 'Action items across the meetings the person may read, newest meeting first.',
      inputSchema: { status: z.enum(TRACKER_STATUSES).optional().describe('open (default), done, dismissed, overdue or all') },
      annotations: readOnly,
    },
    async ({ status }) => {
      const page = await deps.notes.actionItemTracker(userId, { status: status ?? 'open', page: 1, pageSize: 50 });
      if (page.items.length === 0) return text(`No ${status ?? 'open'} action items.`);
      const lines = page.items.map(
        (i) =>
          `- [${i.status}${i.overdue ? ', overdue' : ''}] ${i.text} — ${i.assignee ?? 'unassigned'}${i.due ? `, due ${i.due}` : ''} — from “${i.meeting.title}” (${day(i.meeting.startedAt)}) ${link(i.meeting.id, i.startMs)}`,
      );
      return text(
        `${page.total} ${status ?? 'open'} action item(s)${page.total > page.items.length ? `, the first ${page.items.length}` : ''}:\n${lines.join('\n')}`,
      );
    },
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask about meetings',
      description: "Answers a question from the person's meetings with Parley's Ask: every sentence cites the transcript moments that hold it.",
      inputSchema: { question: z.string().trim().min(1).max(500).describe('The question, in plain words') },
      annotations: readOnly,
    },
    async ({ question }, extra) => {
      const answer = await deps.ask.ask(userId, { question }, undefined, extra.signal);
      const citations = answer.citations.map(
        (c, i) => `[${i + 1}] “${c.meetingTitle}” at ${clock(c.startMs)}${c.speaker ? `, ${c.speaker}` : ''}: ${c.text} — ${link(c.meetingId, c.startMs)}`,
      );
      const sentences =
        answer.mode === 'llm' && answer.sentences.length > 0
          ? answer.sentences.map((s) => `${s.text}${s.citations.map((n) => ` [${n + 1}]`).join('')}`).join(' ')
          : answer.answer;
      return text(
        [sentences, ...(answer.notice ? ['', `Note: ${answer.notice}`] : []), ...(citations.length > 0 ? ['', 'Sources:', ...citations] : [])].join('\n'),
      );
    },
  );

  return server;
}
