import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, MeetingDetailSchema, MeetingListResponseSchema, type MeetingDetail, type MeetingSummary } from '#shared/contracts/meetings.ts';
import type { Insight } from '#shared/contracts/notes.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { testDatabaseKind } from '#tests/support/test-database.ts';
import { localBlobPath } from '#server/lib/blob-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' } });
});
afterAll(() => t.close());

const newUser = async () => (await signUpUser(t.app, 'export')).token;

const get = (token: string | undefined, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function meetingTitled(token: string, title: string): Promise<MeetingSummary> {
  const list = MeetingListResponseSchema.parse((await get(token, `/api/v1/meetings?q=${encodeURIComponent(title)}`)).json());
  const meeting = list.items.find((m) => m.title === title);
  expect(meeting).toBeDefined();
  return meeting!;
}

/** The named entry of a ZIP archive (a DOCX is one), read through its central directory. */
function unzipEntry(archive: Buffer, name: string): string | undefined {
  const eocd = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive');
  const entries = archive.readUInt16LE(eocd + 10);
  let offset = archive.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i += 1) {
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localHeader = archive.readUInt32LE(offset + 42);
    const entryName = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (entryName === name) {
      const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
      const data = archive.subarray(dataStart, dataStart + compressedSize);
      return (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
    }
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return undefined;
}

/** The words of a DOCX as a reader sees them: the text runs of word/document.xml, entities decoded. */
function docxText(archive: Buffer): string {
  const xml = unzipEntry(archive, 'word/document.xml') ?? '';
  const runs = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1] ?? '');
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return runs.join('').replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => entities[name] ?? '');
}

/** The text of a PDF as pdf.js (Firefox's reader) extracts it, with line wraps as spaces. */
async function pdfText(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** The ToUnicode character maps of a PDF's fonts (glyph → text), from its compressed streams. */
function toUnicodeMaps(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const maps: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const data = pdf.subarray(start, raw.indexOf('endstream', start));
    let inflated: string;
    try {
      inflated = zlib.inflateSync(data).toString('latin1');
    } catch {
      continue; // not a Flate stream (an image, a font program stored otherwise)
    }
    if (inflated.includes('begincmap')) maps.push(inflated);
  }
  return maps;
}

/** An action item's due date as the exports print it: "Wed, Nov 19, 2026". */
const dueDay = (due: string) =>
  new Date(`${due}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

describe('transcript exports', () => {
  let token: string;
  let standup: MeetingSummary;
  /** The sample's action item "Finish the regression suite…" (QA Team, "Wednesday"), said at 00:42. */
  let regression: Insight;
  beforeAll(async () => {
    token = await newUser();
    standup = await meetingTitled(token, 'Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await get(token, `/api/v1/meetings/${standup.id}`)).json());
    expect(detail.notes.status).toBe('ready');
    regression = detail.insights.find((i) => i.text === 'Finish the regression suite for the billing screens')!;
    expect(regression).toMatchObject({ kind: 'action_item', assignee: 'QA Team', dueText: 'Wednesday', startMs: 42_000, status: 'open' });
    expect(regression.due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
  const exportOf = (format: string) => get(token, `/api/v1/meetings/${standup.id}/export?format=${format}`);
  const regressionLine = () => `Finish the regression suite for the billing screens — Owner: QA Team · Due: ${dueDay(regression.due!)} ("Wednesday") · Open`;

  it('TXT: title, date, participants, summary, then [mm:ss] Speaker: text lines', async () => {
    const response = await exportOf('txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Weekly Team Standup.txt"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('Weekly Team Standup');
    expect(lines).toContain('Participants: Alex Johnson, Sarah Miller, David Chen, Emma Wilson');
    // A new account's profile time zone is Pacific (spec §2), so the date is Pacific time.
    expect(lines.some((l) => /^Date: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M P[SD]T$/.test(l))).toBe(true);
    expect(lines).toContain(standup.summary);
    expect(lines).toContain("[00:00] Alex Johnson: Good morning everyone. Let's go around quickly: what shipped, what's next, and anything blocking.");
    expect(lines).toContain('[00:10] Sarah Miller: The new onboarding flow is feature complete. I am polishing the empty states and it should ship on Friday.');
    expect(lines.filter((l) => /^\[\d\d:\d\d\] /.test(l))).toHaveLength(6);
    expect(lines.indexOf(standup.summary!)).toBeLessThan(lines.findIndex((l) => l.startsWith('[00:00]')));
  });

  it('TXT: the notes before the transcript, each item with its time, action items with owner, due date and status', async () => {
    const lines = (await exportOf('txt')).body.split('\n');
    const at = (line: string) => {
      expect(lines, line).toContain(line);
      return lines.indexOf(line);
    };
    const order = [
      at('Summary'),
      at(standup.summary!),
      at('Key points'),
      at('- [00:10] The onboarding flow is feature complete and ships on Friday.'),
      at('Action items'),
      at(
        `- [00:35] Get production credentials for the new API gateway — Owner: Platform Team · Due: ${
          lines
            .find((l) => l.startsWith('- [00:35]'))
            ?.split('Due: ')[1]
            ?.split(' · ')[0]
        } · Open`,
      ),
      at(`- [00:42] ${regressionLine()}`),
      at('Decisions'),
      at('- [00:55] Release the onboarding flow on Friday.'),
      at('Topics'),
      at('- [00:00–00:22] Sprint progress'),
      at('- [00:23–00:41] API migration'),
      at('- [00:42–01:03] Regression testing'),
      at('Transcript'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines.some((l) => l.startsWith('Notes:'))).toBe(false);
  });

  it('MD: text/markdown named <title>.md with facts, notes and the transcript with speakers and times', async () => {
    const response = await exportOf('md');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Weekly Team Standup.md"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('# Weekly Team Standup');
    expect(lines).toContain('- **Participants:** Alex Johnson, Sarah Miller, David Chen, Emma Wilson');
    expect(lines.some((l) => /^- \*\*Date:\*\* \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M P[SD]T$/.test(l))).toBe(true);
    expect(lines).toContain('- **Duration:** 32 min');
    const order = [
      lines.indexOf('## Summary'),
      lines.indexOf(standup.summary!),
      lines.indexOf('## Action items'),
      lines.indexOf(`- [ ] \`00:42\` ${regressionLine()}`),
      lines.indexOf('- `00:42–01:03` Regression testing'),
      lines.indexOf('## Transcript'),
      lines.indexOf('`00:10` **Sarah Miller:** The new onboarding flow is feature complete. I am polishing the empty states and it should ship on Friday.'),
    ];
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines.filter((l) => /^`\d\d:\d\d` \*\*[^*]+:\*\* /.test(l))).toHaveLength(6);
  });

  it('SRT: numbered cues with exact comma timestamps', async () => {
    const response = await exportOf('srt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-subrip; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Weekly Team Standup.srt"');
    const cues = response.body.trimEnd().split('\n\n');
    expect(cues).toHaveLength(6);
    expect(cues[0]).toBe(
      "1\n00:00:00,000 --> 00:00:09,000\nAlex Johnson: Good morning everyone. Let's go around quickly: what shipped, what's next, and anything blocking.",
    );
    expect(cues[1]?.split('\n').slice(0, 2)).toEqual(['2', '00:00:10,000 --> 00:00:22,000']);
    expect(cues[5]?.split('\n').slice(0, 2)).toEqual(['6', '00:00:55,000 --> 00:01:03,000']);
  });

  it('VTT: WEBVTT header, numbered cues with exact dot timestamps and voice tags', async () => {
    const response = await exportOf('vtt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/vtt; charset=utf-8');
    const blocks = response.body.trimEnd().split('\n\n');
    expect(blocks[0]).toBe('WEBVTT');
    expect(blocks).toHaveLength(7);
    expect(blocks[1]).toBe(
      "1\n00:00:00.000 --> 00:00:09.000\n<v Alex Johnson>Good morning everyone. Let's go around quickly: what shipped, what's next, and anything blocking.",
    );
    expect(blocks[6]?.split('\n').slice(0, 2)).toEqual(['6', '00:00:55.000 --> 00:01:03.000']);
  });

  it('DOCX: a zip whose word/document.xml holds the title and the transcript', async () => {
    const response = await exportOf('docx');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Weekly Team Standup.docx"');
    const archive = response.rawPayload;
    expect(archive.subarray(0, 2).toString('latin1')).toBe('PK');
    const xml = unzipEntry(archive, 'word/document.xml');
    expect(xml).toContain('Weekly Team Standup');
    expect(xml).toContain('Sarah Miller: ');
    expect(xml).toContain('[00:10] ');
    expect(xml).toContain('Alex Johnson, Sarah Miller, David Chen, Emma Wilson');
    const text = docxText(archive);
    expect(text).toContain(`Summary${standup.summary}`);
    expect(text).toContain(`Action items[00:35] Get production credentials`);
    expect(text).toContain(`[00:42] ${regressionLine()}`);
    expect(text).toContain('Topics[00:00–00:22] Sprint progress');
    expect(text.indexOf(regressionLine())).toBeLessThan(text.indexOf('Transcript[00:00] Alex Johnson: '));
  });

  it('PDF: a PDF document with the summary, the notes and the transcript', async () => {
    const response = await exportOf('pdf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="Weekly Team Standup.pdf"');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(response.rawPayload.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(response.rawPayload.length).toBeGreaterThan(1000);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain(`Summary ${standup.summary}`);
    expect(text).toContain(`[00:42] ${regressionLine()}`);
    expect(text).toContain('[00:00–00:22] Sprint progress');
    expect(text.indexOf(regressionLine())).toBeLessThan(text.indexOf('Transcript [00:00] Alex Johnson: Good morning everyone.'));
  });

  it('leaves dismissed items out and says so when the notes failed, in every document format', async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await get(owner, `/api/v1/meetings/${meeting.id}`)).json());
    const credentials = detail.insights.find((i) => i.text.startsWith('Get production credentials'))!;
    const dismissed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${meeting.id}/notes/items/${credentials.id}`,
      payload: { status: 'dismissed' },
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(dismissed.statusCode).toBe(200);
    // A later run of the notes failed: the earlier items stay, and the documents say they are not current.
    await t.deps.database.db
      .updateTable('meeting_notes')
      .set({ status: 'failed', failure_reason: 'The notes service did not answer.' })
      .where('meeting_id', '=', meeting.id)
      .execute();
    const line = 'Notes: not ready (failed: The notes service did not answer). The notes below were written before.';
    const exported = async (format: string) => {
      const response = await get(owner, `/api/v1/meetings/${meeting.id}/export?format=${format}`);
      expect(response.statusCode, format).toBe(200);
      return response;
    };
    const texts = {
      txt: (await exported('txt')).body,
      md: (await exported('md')).body,
      docx: docxText((await exported('docx')).rawPayload),
      pdf: await pdfText((await exported('pdf')).rawPayload),
    };
    for (const [format, text] of Object.entries(texts)) {
      expect(text, format).toContain(line);
      expect(text, format).toContain('Finish the regression suite for the billing screens');
      expect(text, format).not.toContain('Get production credentials');
    }
    expect(texts.md).toContain(`_${line}_`);
  });

  it('uses the current speaker names and a UTF-8 file name for a non-ASCII title', async () => {
    const detail = (await get(token, `/api/v1/meetings/${standup.id}`)).json() as MeetingDetail;
    const speaker = detail.speakers.find((s) => s.displayName === 'Sarah Miller')!;
    const inject = (method: 'PATCH', url: string, payload: object) => t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
    expect((await inject('PATCH', `/api/v1/meetings/${standup.id}/speakers/${speaker.id}`, { displayName: 'Sarah M.' })).statusCode).toBe(200);
    expect((await inject('PATCH', `/api/v1/meetings/${standup.id}`, { title: 'Café / réunion' })).statusCode).toBe(200);
    const response = await exportOf('txt');
    expect(response.body).toContain('[00:10] Sarah M.: The new onboarding flow');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Cafe reunion.txt"; filename*=UTF-8''Caf%C3%A9%20r%C3%A9union.txt`);
    expect((await exportOf('pdf')).statusCode).toBe(200);
  });

  // How a PDF prints each script is the document's, the same on either database: on SQLite only.
  const onSQLiteOnly = it.skipIf(testDatabaseKind() === 'postgres');

  onSQLiteOnly('PDF: every script prints as itself (Polish, Cyrillic, Greek, CJK, emoji), in fonts embedded in the file', async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await get(owner, `/api/v1/meetings/${meeting.id}`)).json());
    const texts = [
      'Łódź i Gdańsk: zażółć gęślą jaźń, Żółw.',
      'Привет всем, начинаем встречу. Всё готово?',
      'Καλημέρα σε όλους, ξεκινάμε τη συνάντηση.',
      '我们明天开会。会議は明日の午後です。회의는 내일입니다.',
      'Great work 🎉 👍 🚀 shipped ✅ on time',
    ];
    const headers = { authorization: `Bearer ${owner}` };
    for (const [index, text] of texts.entries()) {
      const segment = detail.segments[index]!;
      const edited = await t.app.inject({ method: 'PATCH', url: `/api/v1/meetings/${meeting.id}/segments/${segment.id}`, payload: { text }, headers });
      expect(edited.statusCode).toBe(200);
    }
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${meeting.id}/speakers/${detail.speakers[0]!.id}`,
      payload: { displayName: 'Małgorzata Żak' },
      headers,
    });
    expect(renamed.statusCode).toBe(200);
    const title = await t.app.inject({ method: 'PATCH', url: `/api/v1/meetings/${meeting.id}`, payload: { title: 'Встреча 会议 Σύσκεψη' }, headers });
    expect(title.statusCode).toBe(200);

    const response = await get(owner, `/api/v1/meetings/${meeting.id}/export?format=pdf`);
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Встреча 会议 Σύσκεψη');
    for (const [index, line] of texts.entries()) {
      const segment = detail.segments[index]!;
      const speaker = segment.speakerId === detail.speakers[0]!.id ? 'Małgorzata Żak' : detail.speakers.find((s) => s.id === segment.speakerId)!.displayName;
      expect(text).toContain(`${speaker}: ${line}`);
    }
    // Each font the text needed is embedded (a subset: "ABCDEF+Name"), and no standard font stands in.
    const raw = response.rawPayload.toString('latin1');
    const embedded = new Set([...raw.matchAll(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]));
    expect([...embedded]).toEqual(expect.arrayContaining(['NotoSans-Regular', 'NotoSans-Bold', 'NotoSansCJKsc-Regular', 'Symbola']));
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/);
    expect(raw).toMatch(/\/FontFile2 /);
    expect(raw).toMatch(/\/FontFile3 /);
  });

  onSQLiteOnly('PDF: Hebrew and Arabic lines print right to left, right-aligned, words in order, Arabic joined; Latin and CJK lines as before', async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await get(owner, `/api/v1/meetings/${meeting.id}`)).json());
    const numbers = 'אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע עשר';
    const long = [numbers, numbers, numbers, numbers].join(' ');
    const texts = [
      'שלום עולם, מתחילים את הפגישה.',
      'مرحبا بالجميع، نبدأ الاجتماع الآن.',
      'דיברתי עם David Chen על גרסה 2.5 של המערכת.',
      '我们明天开会。会議は明日の午後です。',
      long,
    ];
    const headers = { authorization: `Bearer ${owner}` };
    for (const [index, text] of texts.entries()) {
      const segment = detail.segments[index]!;
      const edited = await t.app.inject({ method: 'PATCH', url: `/api/v1/meetings/${meeting.id}/segments/${segment.id}`, payload: { text }, headers });
      expect(edited.statusCode).toBe(200);
    }
    const response = await get(owner, `/api/v1/meetings/${meeting.id}/export?format=pdf`);
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);

    // pdf.js reads a line's pieces of text left to right and turns each right-to-left piece into
    // logical order itself. A right-to-left line printed in visual order (its first word at the
    // right) therefore reads piece by piece from its left end: the sentence's end ("." and its last
    // words) first, "[00:00]" last; inside each Hebrew piece the words are in order, spaces kept.
    // Written in logical order (before), the line read "…עולםשלום [00:00] Alex Johnson:".
    expect(text).toContain('.מתחילים את הפגישה ,שלום עולם :Alex Johnson [00:00]');
    expect(text).not.toContain('עולםשלום');
    // Arabic likewise. Its two lam-alef ligatures ("لا" in الاجتماع, "لآ" in الآن) are one glyph each,
    // which pdf.js turns around with the rest of the piece: "اال…", "اآلن" (shaping: see below).
    expect(text).toContain('.مرحبا بالجميع، نبدأ االجتماع اآلن :Sarah Miller [00:10]');
    // A left-to-right name and a number inside a Hebrew sentence keep their own direction and place.
    expect(text).toContain('.של המערכת 2.5 על גרסה David Chen דיברתי עם :David Chen [00:23]');
    // Left-to-right lines are written as before.
    expect(text).toContain('[00:35] Alex Johnson: 我们明天开会。会議は明日の午後です。');
    expect(text).toContain('[00:55] Alex Johnson: Great. So onboarding Friday, regression by Wednesday, and I unblock the credentials. Thanks all.');

    // Where each line sits: right-to-left lines end at the right margin, left-to-right ones start at the left.
    const page = await (await getDocumentProxy(new Uint8Array(response.rawPayload))).getPage(1);
    const items = (await page.getTextContent()).items.filter((item) => 'str' in item && item.str.trim() !== '') as Array<{
      str: string;
      dir: string;
      transform: number[];
      width: number;
    }>;
    const margin = 56;
    const right = page.view[2]! - margin;
    const lineOf = (piece: string) => {
      const y = items.find((item) => item.str.includes(piece))?.transform[5];
      expect(y, piece).toBeDefined();
      return items.filter((item) => Math.abs(item.transform[5]! - y!) < 1);
    };
    for (const piece of ['שלום עולם', 'مرحبا بالجميع', 'דיברתי עם']) {
      const line = lineOf(piece);
      expect(Math.max(...line.map((item) => item.transform[4]! + item.width)), piece).toBeCloseTo(right, 0);
      expect(Math.min(...line.map((item) => item.transform[4]!)), piece).toBeGreaterThan(margin + 100);
    }
    for (const piece of ['我们明天开会', 'Great. So onboarding'])
      expect(Math.min(...lineOf(piece).map((item) => item.transform[4]!)), piece).toBeCloseTo(margin, 0);

    // A long Hebrew line wraps in reading order: its first words on the first line, each line flush right.
    const wrapped = items.filter((item) => item.dir === 'rtl' && numbers.split(' ').some((word) => item.str.includes(word)));
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.map((item) => item.str).join(' ')).toBe(long);
    expect(new Set(wrapped.map((item) => Math.round(item.transform[5]!))).size).toBe(wrapped.length);
    for (const item of wrapped.slice(1)) expect(item.transform[4]! + item.width).toBeCloseTo(right, 0);

    // Hebrew and Arabic in their Noto fonts; Arabic shaped: the font's character map has the lam-alef
    // ligatures (one glyph for two letters) and alef in two forms (alone, and joined to the letter before).
    const raw = response.rawPayload.toString('latin1');
    const embedded = new Set([...raw.matchAll(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]));
    expect([...embedded]).toEqual(expect.arrayContaining(['NotoSansHebrew-Regular', 'NotoSansArabic-Regular', 'NotoSans-Regular', 'NotoSansCJKsc-Regular']));
    const arabicMap = toUnicodeMaps(response.rawPayload).find((map) => map.includes('<0645>'));
    expect(arabicMap).toContain('<0644 0627>');
    expect(arabicMap).toContain('<0644 0622>');
    expect(arabicMap!.match(/<0627>/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it("prints times in the reader's profile time zone, and the named speakers as participants", async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const detail = MeetingDetailSchema.parse((await get(owner, `/api/v1/meetings/${meeting.id}`)).json());
    const headers = { authorization: `Bearer ${owner}` };
    const profile = await t.app.inject({ method: 'PUT', url: '/auth/v1/user', payload: { data: { timezone: 'america-new_york' } }, headers });
    expect(profile.statusCode).toBe(200);
    // The typed participants cleared: the speakers named in the transcript are the participants.
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/meetings/${meeting.id}`, payload: { participants: [] }, headers })).statusCode).toBe(200);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/meetings/${meeting.id}/speakers/${detail.speakers[1]!.id}`,
      payload: { displayName: 'Zoë Ångström' },
      headers,
    });
    expect(renamed.statusCode).toBe(200);
    const named = detail.speakers.map((s, i) => (i === 1 ? 'Zoë Ångström' : s.displayName)).filter((n): n is string => Boolean(n));
    const eastern = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: 'America/New_York',
    }).format(new Date(detail.startedAt));
    expect(eastern).toMatch(/ E[SD]T$/);
    const txt = (await get(owner, `/api/v1/meetings/${meeting.id}/export?format=txt`)).body.split('\n');
    expect(txt).toContain(`Date: ${eastern}`);
    expect(txt).toContain(`Participants: ${named.join(', ')}`);
    const md = (await get(owner, `/api/v1/meetings/${meeting.id}/export?format=md`)).body;
    expect(md).toContain(`- **Date:** ${eastern}`);
    const pdf = await pdfText((await get(owner, `/api/v1/meetings/${meeting.id}/export?format=pdf`)).rawPayload);
    expect(pdf).toContain(`Date: ${eastern}`);
    expect(pdf).toContain(`Participants: ${named.join(', ')}`);
  });

  it('prints times in any IANA zone the profile names, and in Pacific time for a zone it does not know', async () => {
    const owner = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    const headers = { authorization: `Bearer ${owner}` };
    const dateIn = (timeZone: string) =>
      new Intl.DateTimeFormat('en-US', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
        timeZone,
      }).format(new Date(meeting.startedAt));
    for (const [stored, zone] of [
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Mars/Olympus_Mons', 'America/Los_Angeles'],
    ] as const) {
      expect((await t.app.inject({ method: 'PUT', url: '/auth/v1/user', payload: { data: { timezone: stored } }, headers })).statusCode).toBe(200);
      const txt = (await get(owner, `/api/v1/meetings/${meeting.id}/export?format=txt`)).body.split('\n');
      expect(txt).toContain(`Date: ${dateIn(zone)}`);
    }
    expect(dateIn('Asia/Kolkata')).toMatch(/ GMT\+5:30$/);
  });

  it('exports a meeting without a transcript yet', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/meetings', payload: { title: '会议' }, headers: { authorization: `Bearer ${token}` } });
    const id = (created.json() as { id: string }).id;
    for (const format of EXPORT_FORMATS) {
      const response = await get(token, `/api/v1/meetings/${id}/export?format=${format}`);
      expect(response.statusCode, format).toBe(200);
    }
    const txt = await get(token, `/api/v1/meetings/${id}/export?format=txt`);
    expect(txt.body).toContain('(No transcript yet.)');
    expect(txt.body).toContain('\nNotes: not ready (the transcript is not ready yet).\n');
    expect(txt.body).not.toMatch(/Summary|Key points|Action items/);
    expect((await get(token, `/api/v1/meetings/${id}/export?format=md`)).body).toContain('_No transcript yet._');
    expect(txt.headers['content-disposition']).toBe(`attachment; filename="_.txt"; filename*=UTF-8''%E4%BC%9A%E8%AE%AE.txt`);
    expect((await get(token, `/api/v1/meetings/${id}/export?format=vtt`)).body).toBe('WEBVTT\n');
  });

  it('rejects a missing or unknown format with a clear 400', async () => {
    for (const query of ['', '?format=exe', '?format=TXT']) {
      const response = await get(token, `/api/v1/meetings/${standup.id}/export${query}`);
      expect(response.statusCode).toBe(400);
      const body = response.json() as { error: { code: string; message: string } };
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.message).toContain('querystring.format');
    }
    expect((await get(token, '/api/v1/meetings/not-a-uuid/export?format=txt')).statusCode).toBe(400);
  });
});

describe('audio downloads', () => {
  let token: string;
  let meeting: MeetingSummary;
  const audio = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(async () => {
    token = await newUser();
    meeting = await meetingTitled(token, 'Product Roadmap Review');
    // Stored as the recording flow stores it: a blob under a generated key, named on the meeting.
    const key = t.deps.blobs.newKey('webm');
    fs.mkdirSync(path.dirname(localBlobPath(t.config.dataDir, key)), { recursive: true });
    fs.writeFileSync(localBlobPath(t.config.dataDir, key), audio);
    await t.deps.database.db
      .updateTable('meetings')
      .set({ audio_key: key, audio_mime: 'audio/webm', audio_bytes: audio.length })
      .where('id', '=', meeting.id)
      .execute();
  });
  const audioOf = (headers: Record<string, string> = {}, id = meeting.id, as = token) => get(as, `/api/v1/meetings/${id}/audio`, headers);

  it('streams the whole recording with its type and advertises ranges', async () => {
    const response = await audioOf();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('audio/webm');
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-length']).toBe('1000');
    expect(response.headers['content-disposition']).toBe('inline; filename="Product Roadmap Review.webm"');
    expect(response.rawPayload.equals(audio)).toBe(true);
  });

  it('answers byte ranges with 206 and exact Content-Range', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=900-', 900, 999],
      ['bytes=-10', 990, 999],
      ['bytes=500-100000', 500, 999],
    ];
    for (const [range, start, end] of cases) {
      const response = await audioOf({ range });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
      expect(response.headers['content-length']).toBe(String(end - start + 1));
      expect(response.rawPayload.equals(audio.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers an unsatisfiable range with 416, and a stale If-Range with the whole file', async () => {
    const outside = await audioOf({ range: 'bytes=1000-' });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe('bytes */1000');
    const etag = (await audioOf()).headers.etag as string;
    expect((await audioOf({ range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const stale = await audioOf({ range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(1000);
  });

  it('says clearly when a meeting has no audio', async () => {
    const other = await meetingTitled(token, 'Weekly Team Standup');
    const response = await audioOf({}, other.id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'This meeting has no audio recording' } });
  });
});

describe('authorization', () => {
  it("a second user can export nothing of the first's, and no token is a 401", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const meeting = await meetingTitled(owner, 'Weekly Team Standup');
    for (const format of EXPORT_FORMATS) {
      const response = await get(stranger, `/api/v1/meetings/${meeting.id}/export?format=${format}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Meeting not found' } });
    }
    expect((await get(stranger, `/api/v1/meetings/${meeting.id}/audio`)).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Meeting not found' } });
    expect((await get(undefined, `/api/v1/meetings/${meeting.id}/export?format=txt`)).statusCode).toBe(401);
    expect((await get(undefined, `/api/v1/meetings/${meeting.id}/audio`)).statusCode).toBe(401);
  });
});
