import type { Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { exportableMeeting, item, READY_NOTES, SPEAKER_A, SPEAKER_B } from '#tests/support/export-meeting.ts';
import { toExportDocument } from './export-document.ts';
import { renderMarkdown } from './export-markdown.ts';

const markdownOf = (overrides: Parameters<typeof exportableMeeting>[0] = {}) => renderMarkdown(toExportDocument(exportableMeeting(overrides), 'UTC'));
/** Read back as GitHub reads it: the test of escaping is what a Markdown reader makes of the file. */
const parse = (markdown: string): Root => fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
const blocksAfter = (tree: Root, heading: string): RootContent[] => {
  const start = tree.children.findIndex((node) => node.type === 'heading' && toString(node) === heading);
  expect(start, heading).toBeGreaterThan(-1);
  const end = tree.children.findIndex((node, i) => i > start && node.type === 'heading');
  return tree.children.slice(start + 1, end < 0 ? undefined : end);
};

describe('the Markdown export', () => {
  it('prints the title, facts, notes with their times (h:mm:ss past an hour), then the transcript', () => {
    expect(markdownOf()).toBe(
      [
        '# Design \\<review> & sync',
        '',
        '- **Date:** November 20, 2026 at 2:05 PM UTC',
        '- **Duration:** 1h 2m',
        '- **Participants:** Ada Lovelace, Grace Hopper',
        '',
        '## Summary',
        '',
        'We picked the blue one.',
        '',
        '## Key points',
        '',
        '- `00:01` Blue tested best.',
        '',
        '## Action items',
        '',
        '- [ ] `01:05` Order the blue paint — Owner: Grace Hopper · Due: Fri, Nov 27, 2026 ("by Friday") · Open',
        '- [x] `1:02:05` Tell the printers — Owner: Unassigned · Due: none · Done',
        '',
        '## Decisions',
        '',
        '- `1:02:05` Ship the blue one.',
        '',
        '## Topics',
        '',
        '- `00:00–01:10` Colours',
        '- `01:00–1:02:07` Wrap-up',
        '',
        '## Transcript',
        '',
        '`00:01` **Ada Lovelace:** Hello there.',
        '',
        '`01:05` **Speaker 2:** Use \\<b> & stop --> now',
        '',
        '`1:02:05` Bye.',
        '',
      ].join('\n'),
    );
  });

  it('keeps a speaker saying Markdown characters as their words, not as headings, lists, links or markup', () => {
    const said = [
      '# not a heading',
      '* not a list',
      '1. not numbered',
      '> not a quote',
      '---',
      '<script>alert(1)</script> and <b>bold</b>',
      '[a link](http://example.com) ![an image](x.png)',
      '*star* _under_ **strong** `tick` ~~strike~~ | pipe | &amp; \\backslash',
    ];
    const markdown = markdownOf({
      title: '# *Title* [x](y)',
      speakers: [
        { id: SPEAKER_A, label: 'Speaker 1', displayName: '*Ada* #1' },
        { id: SPEAKER_B, label: 'Speaker 2', displayName: null },
      ],
      segments: said.map((text, i) => ({
        id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
        speakerId: SPEAKER_A,
        startMs: i * 1000,
        endMs: i * 1000 + 900,
        text,
        confidence: null,
      })),
      summary: '## not a heading either\n\n- nor a list',
      insights: [item(1, 'action_item', 0, '*Do* the [thing]', { assignee: '_Grace_', due: null, dueText: null })],
    });
    const tree = parse(markdown);
    const title = tree.children[0]!;
    expect(title).toMatchObject({ type: 'heading', depth: 1 });
    expect(toString(title)).toBe('# *Title* [x](y)');

    const transcript = blocksAfter(tree, 'Transcript');
    expect(transcript.map((node) => node.type)).toEqual(said.map(() => 'paragraph'));
    expect(transcript.map((node) => toString(node))).toEqual(said.map((text, i) => `00:0${i} *Ada* #1: ${text}`));
    // Only the timestamp's code and the speaker's bold are markup; the words are plain text, except
    // that a bare URL is a link to itself, as GitHub shows any URL (its words unchanged, checked above).
    for (const paragraph of transcript) {
      const children = paragraph.type === 'paragraph' ? paragraph.children : [];
      expect(children.slice(0, 3).map((child) => child.type)).toEqual(['inlineCode', 'text', 'strong']);
      for (const child of children.slice(3)) {
        if (child.type === 'link') expect(child.url).toBe(toString(child));
        else expect(child.type).toBe('text');
      }
    }
    expect(transcript.flatMap((node) => (node.type === 'paragraph' ? node.children : [])).filter((child) => child.type === 'link')).toHaveLength(1);

    expect(blocksAfter(tree, 'Summary').map((node) => [node.type, toString(node)])).toEqual([
      ['paragraph', '## not a heading either'],
      ['paragraph', '- nor a list'],
    ]);
    const [actions] = blocksAfter(tree, 'Action items');
    expect(actions).toMatchObject({ type: 'list', children: [{ type: 'listItem', checked: false }] });
    expect(toString(actions!)).toBe('00:00 *Do* the [thing] — Owner: _Grace_ · Due: none · Open');
    // No heading but the document's own: the title, the sections and Transcript.
    const headings = tree.children.filter((node) => node.type === 'heading').map((node) => toString(node));
    expect(headings).toEqual(['# *Title* [x](y)', 'Summary', 'Action items', 'Transcript']);
  });

  it('says in one line when the notes are not ready, and prints no empty sections', () => {
    const markdown = markdownOf({ summary: null, insights: [], notes: { ...READY_NOTES, status: 'failed', failureReason: 'The model ran out of memory' } });
    const tree = parse(markdown);
    expect(tree.children.filter((node) => node.type === 'heading').map((node) => toString(node))).toEqual(['Design <review> & sync', 'Transcript']);
    expect(tree.children[2]).toMatchObject({ type: 'paragraph', children: [{ type: 'emphasis' }] });
    expect(toString(tree.children[2]!)).toBe('Notes: not ready (failed: The model ran out of memory).');
  });

  it('says there is no transcript yet rather than ending at its heading', () => {
    const markdown = markdownOf({ status: 'processing', segments: [], insights: [], summary: null });
    expect(markdown).toContain('_Notes: not ready (the transcript is not ready yet)._');
    expect(markdown.trimEnd().endsWith('## Transcript\n\n_No transcript yet._')).toBe(true);
  });
});
