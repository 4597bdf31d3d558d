import type { NotesSegment, NotesTranscript } from '#server/features/notes/notes-types.ts';

/**
 * A made-up meeting of any length, the same every time: three named speakers taking turns of one
 * to three segments (about eight seconds and twenty words each, some 150 words a minute), moving
 * through topics every five minutes, with commitments ("I'll…", "Ben will… by Friday") and
 * decisions sprinkled in so notes have something to find.
 */
const SPEAKERS = [
  { id: 'spk-1', label: 'Speaker 1', name: 'Ana Lima' },
  { id: 'spk-2', label: 'Speaker 2', name: 'Ben' },
  { id: 'spk-3', label: 'Speaker 3', name: null },
];

const TOPICS = ['the mobile release', 'the pricing page', 'the analytics dashboard', 'the hiring plan', 'the support backlog', 'the security review'];

const SENTENCES = [
  (t: string) => `I looked at ${t} again this morning and the numbers from last week are better than we expected overall.`,
  (t: string) => `The main problem with ${t} is that nobody owns the follow-up, so small issues keep piling up every sprint.`,
  (t: string) => `Customers keep asking about ${t} in their emails, mostly about timing and what changes for existing accounts.`,
  (t: string) => `I'll write a short proposal for ${t} and share it in the channel by Friday so everyone can comment.`,
  (t: string) => `We agreed to keep ${t} simple for now and revisit the harder questions after the next quarterly planning.`,
  (t: string) => `Ben will check the open tickets about ${t} tomorrow and report back on which ones block the launch.`,
  (t: string) => `Honestly the data on ${t} is noisy, we should wait another week before drawing any strong conclusions.`,
  (t: string) => `If we move ${t} forward now we lose some flexibility, but the team gets a clear target to work toward.`,
];

export function syntheticMeeting(minutes: number, title = 'Weekly product sync'): NotesTranscript {
  const segments: NotesSegment[] = [];
  const count = Math.round((minutes * 60) / 8);
  let speaker = 0;
  let turnLeft = 1;
  for (let i = 0; i < count; i++) {
    if (turnLeft === 0) {
      speaker = (speaker + 1 + (i % 2)) % SPEAKERS.length;
      turnLeft = 1 + (i % 3);
    }
    turnLeft--;
    const topic = TOPICS[Math.floor(i / ((5 * 60) / 8)) % TOPICS.length]!;
    const text = SENTENCES[(i * 5 + speaker) % SENTENCES.length]!(topic);
    segments.push({ id: `seg-${String(i + 1).padStart(4, '0')}`, speakerId: SPEAKERS[speaker]!.id, startMs: i * 8000, endMs: i * 8000 + 7600, text });
  }
  return { title, startedAt: '2026-03-04T09:00:00.000Z', timeZone: 'Europe/Berlin', speakers: SPEAKERS, segments };
}
