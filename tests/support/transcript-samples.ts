/**
 * Transcript files as meeting tools export them, for the import's parser tests, its integration
 * test and the browser test. Cue ids, line endings and markup follow each tool's own files.
 */

/** Zoom cloud recording transcript: numbered cues, the speaker as a "Name: " prefix of the text. */
export const ZOOM_VTT = `WEBVTT

1
00:00:02.310 --> 00:00:06.150
Jane Cooper: Okay, let's get started. Thanks everyone for joining.

2
00:00:06.900 --> 00:00:11.480
Wade Warren: Thanks Jane. I finished the pricing page draft yesterday.

3
00:00:12.030 --> 00:00:17.700
Jane Cooper: Great. Wade, can you send the pricing page to legal by Friday?

4
00:00:18.120 --> 00:00:20.040
Wade Warren: Yes, I will send it to legal today.
`;

/** Microsoft Teams transcript: GUID cue ids, `<v Name>` voice tags, text over two lines. */
export const TEAMS_VTT = `WEBVTT

6c2a1e9b-4f0d-4a55-9d43-1b7f1c2e8a10/15-0
00:00:03.120 --> 00:00:07.640
<v Megan Bowen>Good morning, everyone. Let's review the launch
checklist before Thursday.</v>

6c2a1e9b-4f0d-4a55-9d43-1b7f1c2e8a10/22-0
00:00:08.010 --> 00:00:12.300
<v Alex Wilber>The store listing is approved &amp; the screenshots are uploaded.</v>

6c2a1e9b-4f0d-4a55-9d43-1b7f1c2e8a10/31-0
00:00:12.900 --> 00:00:16.020
<v Megan Bowen>Good. We decided to ship on Thursday morning.</v>

6c2a1e9b-4f0d-4a55-9d43-1b7f1c2e8a10/38-0
00:01:02.000 --> 00:01:05.500
<v alex wilber>I will post the release notes after the launch.</v>
`;

/** SubRip, as Otter and many caption tools export it: Windows line endings, a BOM, "Name: " prefixes. */
export const OTTER_SRT = [
  '\uFEFF1',
  '00:00:01,500 --> 00:00:04,250',
  'Priya Patel: Welcome to the design review.',
  '',
  '2',
  '00:00:04,800 --> 00:00:09,100',
  'Tom Becker: I shared the new onboarding flow in Figma.',
  '',
  '3',
  '00:00:09,600 --> 00:00:12,000',
  'Priya Patel: Let us test it with five users next week.',
  '',
].join('\r\n');

/** Plain text notes: "Name: text" lines, one wrapped onto the next line. */
export const NAMED_LINES_TXT = `Sarah Miller: Let's start with the budget for the spring campaign.
Omar Haddad: The agency quoted forty thousand for the video work,
which is more than we planned for.
Sarah Miller: We agreed to cap the video budget at thirty thousand.
`;

/** Otter / Teams transcript download: a block per turn under "Name  m:ss" (two spaces), then the words. */
export const SPEAKER_BLOCKS_TXT = `Jane Cooper  0:02
Okay, let's get started. Thanks everyone for joining.

Wade Warren  0:15
Thanks Jane. I finished the pricing page draft yesterday.
It is in the shared folder.

Jane Cooper  1:04
Great, thank you.
`;

/** A WebVTT file whose third cue has a broken start time ("00:00:1x.000"), at line 10. */
export const BAD_TIMESTAMP_VTT = `WEBVTT

00:00:01.000 --> 00:00:04.000
<v Jane Cooper>Hello.

00:00:05.000 --> 00:00:08.000
<v Wade Warren>Hi Jane.

3
00:00:1x.000 --> 00:00:12.000
<v Jane Cooper>This cue cannot be timed.
`;
