import type { BlockContent, ListItem, PhrasingContent, Root, RootContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { clockStamp, headingFacts, noteItemFacts, type ExportDocument, type ExportNoteItem } from './export-document.ts';

/**
 * The Markdown export: title, the meeting's facts, the notes, then the transcript. Built as a
 * Markdown syntax tree and serialised by mdast-util-to-markdown (with GitHub's extensions, so task
 * lists print and "~" is escaped too), which escapes words only where Markdown would read them as
 * syntax: a speaker saying "*", "#" or "<b>" stays text, and the document stays readable as plain text.
 */

const text = (value: string): PhrasingContent => ({ type: 'text', value });
const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
const strong = (value: string): PhrasingContent => ({ type: 'strong', children: [text(value)] });
const paragraph = (...children: PhrasingContent[]): BlockContent => ({ type: 'paragraph', children });
const heading = (depth: 1 | 2, value: string): RootContent => ({ type: 'heading', depth, children: [text(value)] });
const list = (items: ListItem[]): RootContent => ({ type: 'list', ordered: false, spread: false, children: items });
const listItem = (children: PhrasingContent[], checked: boolean | null = null): ListItem => ({
  type: 'listItem',
  spread: false,
  checked,
  children: [paragraph(...children)],
});

/** Paragraphs of free text (a summary a person wrote may have several); line breaks inside one are spaces. */
const paragraphs = (value: string): BlockContent[] =>
  value
    .split(/\n\s*\n/)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '')
    .map((part) => paragraph(text(part)));

const noteItem = (item: ExportNoteItem): ListItem => listItem([code(item.stamp), text(` ${item.text}${noteItemFacts(item)}`)], item.done);

export function renderMarkdown(doc: ExportDocument): string {
  const children: RootContent[] = [heading(1, doc.title), list(headingFacts(doc).map((fact) => listItem([strong(`${fact.label}:`), text(` ${fact.value}`)])))];
  if (doc.notes.statusLine) children.push(paragraph({ type: 'emphasis', children: [text(doc.notes.statusLine)] }));
  if (doc.summary) children.push(heading(2, 'Summary'), ...paragraphs(doc.summary));
  for (const section of doc.notes.sections) children.push(heading(2, section.title), list(section.items.map(noteItem)));
  children.push(heading(2, 'Transcript'));
  if (doc.lines.length === 0) children.push(paragraph({ type: 'emphasis', children: [text('No transcript yet.')] }));
  for (const line of doc.lines) {
    children.push(paragraph(code(clockStamp(line.startMs)), text(' '), ...(line.speaker ? [strong(`${line.speaker}:`), text(' ')] : []), text(line.text)));
  }
  const root: Root = { type: 'root', children };
  return toMarkdown(root, { bullet: '-', emphasis: '_', strong: '*', extensions: [gfmToMarkdown()] });
}
