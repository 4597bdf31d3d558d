import { describe, expect, it } from 'vitest';
import type { NotesDigest } from '#server/lib/chat-channels/notes-digest.ts';
import { escapeMrkdwn, slackNotesMessage, slackTranscriptMessage } from './slack-message.ts';
import { checkSlackWebhookUrl, slackWebhookProblem } from './slack.service.ts';

const digest = (overrides: Partial<NotesDigest> = {}): NotesDigest => ({
  meetingId: 'm1',
  teamId: null,
  title: 'Plan <b> & review',
  when: 'Dec 7, 2026, 3:00 PM',
  participants: ['Dana'],
  summary: 'We met.',
  actionItems: [{ text: 'Ship it', assignee: null, due: '2026-12-11' }],
  decisions: [],
  link: 'https://parley.example/meetings/m1',
  linkIsShare: false,
  transcript: [],
  ...overrides,
});

describe('Slack webhook URLs', () => {
  it('takes Slack’s incoming webhook URLs only, unless the operator allows private networks', () => {
    expect(checkSlackWebhookUrl('https://hooks.slack.com/services/T0/B0/abc', false)).toEqual({ destination: 'hooks.slack.com/…' });
    expect(checkSlackWebhookUrl('https://hooks.slack-gov.com/services/T0/B0/abc', false).destination).toBe('hooks.slack-gov.com/…');
    for (const url of [
      'http://hooks.slack.com/services/T0/B0/abc',
      'https://hooks.slack.com.evil.example/services/x',
      'https://example.com/services/x',
      'nonsense',
    ])
      expect(() => checkSlackWebhookUrl(url, false), url).toThrow(/Slack incoming webhook URL|not a URL/);
    expect(() => checkSlackWebhookUrl('https://user:pw@hooks.slack.com/services/T0/B0/abc', false)).toThrow(/user name or password/);
    expect(checkSlackWebhookUrl('http://chat.internal:8065/hooks/abc', true).destination).toBe('chat.internal:8065/…');
    expect(() => checkSlackWebhookUrl('http://169.254.169.254/latest', true)).toThrow(/cloud metadata/);
  });

  it('says what Slack’s refusals mean and what to do', () => {
    expect(slackWebhookProblem(404, 'no_service')).toMatch(/no longer works \(no_service\)/);
    expect(slackWebhookProblem(410, 'channel_is_archived')).toMatch(/archived/);
    expect(slackWebhookProblem(429, '')).toMatch(/limiting/);
    expect(slackWebhookProblem(418, '<html>')).toBe('Slack refused the post (HTTP 418: <html>). Check the webhook in Slack, or connect a new one.');
  });
});

describe('Block Kit messages', () => {
  it('escapes a person’s words and marks unassigned items', () => {
    const message = slackNotesMessage(digest());
    expect(escapeMrkdwn('a <b> & c')).toBe('a &lt;b&gt; &amp; c');
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Plan <b> & review' } });
    expect(JSON.stringify(message.blocks)).toContain('• Ship it — _Unassigned_ · due Fri, Dec 11');
  });

  it('keeps a long transcript within 50 blocks of 3,000 characters and says where the rest is', () => {
    const transcript = Array.from({ length: 2000 }, (_, i) => ({ speaker: 'Dana', startMs: i * 1000, text: `Line ${i} `.repeat(20) }));
    const { message, truncated } = slackTranscriptMessage(digest({ transcript }));
    expect(truncated).toBe(true);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const block of message.blocks) if ('text' in block) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(message.blocks.at(-1))).toContain('The rest is in Parley');
  });
});
