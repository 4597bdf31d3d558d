/**
 * A meeting's notes as a chat post carries them (Slack's Block Kit message, Teams' Adaptive Card):
 * read through the meetings, notes and sharing services (ports given by the feature), so only what
 * the meeting's owner may read is posted.
 */
export type NotesDigest = {
  meetingId: string;
  /** The team the meeting is shared with now (its channel gets the notes too). */
  teamId: string | null;
  title: string;
  /** The meeting's start, in words in its owner's time zone ("Mon, Dec 7, 2026, 3:00 PM"). */
  when: string;
  participants: string[];
  summary: string | null;
  actionItems: { text: string; assignee: string | null; due: string | null }[];
  decisions: string[];
  /** The meeting page, or a share link (readable without an account) when the channel asks for one. */
  link: string;
  linkIsShare: boolean;
  transcript: { speaker: string; startMs: number; text: string }[];
};

type Insight = { kind: string; text: string; assignee: string | null; due: string | null; status: string };
type Meeting = {
  teamId?: string | null | undefined;
  title: string;
  startedAt: string;
  participants: string[];
  summary: string | null;
  transcriptRevision: number;
  speakers: { id: string; label: string; displayName: string | null }[];
  segments: { speakerId: string | null; startMs: number; text: string }[];
};

export type DigestSources = {
  /** The meeting as this person may read it (their own, or their team's). */
  meeting: (userId: string, meetingId: string) => Promise<Meeting | undefined>;
  insights: (meetingId: string, transcriptRevision: number) => Promise<{ insights: Insight[] }>;
  /** A new share link's token, or undefined when none can be made (the meeting's link limit). */
  shareToken: (ownerId: string, meetingId: string) => Promise<string | undefined>;
  timeZoneOf: (userId: string) => Promise<string>;
  publicUrl: string;
};

export function createDigests(sources: DigestSources) {
  const base = sources.publicUrl.replace(/\/+$/, '');
  return async (userId: string, meetingId: string, options: { shareLink: boolean }): Promise<NotesDigest | undefined> => {
    const meeting = await sources.meeting(userId, meetingId);
    if (!meeting) return undefined;
    const [{ insights }, timeZone] = await Promise.all([sources.insights(meetingId, meeting.transcriptRevision), sources.timeZoneOf(userId)]);
    const live = insights.filter((item) => item.status !== 'dismissed');
    const token = options.shareLink ? await sources.shareToken(userId, meetingId) : undefined;
    const speakers = new Map(meeting.speakers.map((s) => [s.id, s.displayName ?? s.label]));
    return {
      meetingId,
      teamId: meeting.teamId ?? null,
      title: meeting.title,
      when: formatWhen(meeting.startedAt, timeZone),
      // An imported transcript names its speakers, not participants: they are who took part.
      participants: meeting.participants.length > 0 ? meeting.participants : [...new Set(meeting.speakers.map((s) => s.displayName ?? s.label))],
      summary: meeting.summary,
      actionItems: live.filter((item) => item.kind === 'action_item').map((item) => ({ text: item.text, assignee: item.assignee, due: item.due })),
      decisions: live.filter((item) => item.kind === 'decision').map((item) => item.text),
      link: token ? `${base}/shared/${encodeURIComponent(token)}` : `${base}/meetings/${encodeURIComponent(meetingId)}`,
      linkIsShare: token !== undefined,
      transcript: meeting.segments.map((s) => ({ speaker: (s.speakerId && speakers.get(s.speakerId)) || 'Speaker', startMs: s.startMs, text: s.text })),
    };
  };
}

function formatWhen(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** "Tue, Dec 8" for an ISO day (a due date), read as that calendar day wherever the server is. */
export function formatDue(isoDay: string): string {
  const date = new Date(`${isoDay}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

/** "12:05" or "1:02:05" for a moment in the recording. */
export function formatMoment(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
