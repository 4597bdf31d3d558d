import type { NotesSpeaker, NotesTranscript } from '#server/features/notes/notes-types.ts';

/**
 * A made-up six-minute launch sync of three people, as a new user would record one: it moves from
 * the launch date to the launch party, the press and the pricing, and hands out its tasks in every
 * way people do ("Daniel, please…" answered by "I will…", "Dana to…", "Daniel Ortiz will…", "can
 * you…, Dana?", "we'll…"). Tests and the notes bench read what notes should find in it.
 */
export const LAUNCH_SPEAKERS: NotesSpeaker[] = [
  { id: 'spk-maya', label: 'Speaker 1', name: 'Maya Chen' },
  { id: 'spk-daniel', label: 'Speaker 2', name: 'Daniel Ortiz' },
  { id: 'spk-dana', label: 'Speaker 3', name: 'Dana Kim' },
];

const LINES: ReadonlyArray<readonly [speakerId: string, text: string]> = [
  ['spk-maya', "Okay, let's get started. This is the launch sync for the new mobile app, and we have about six minutes."],
  ['spk-maya', 'First the launch date. Marketing wants the launch in the middle of March.'],
  ['spk-daniel', 'The app store review takes about a week, so the fourteenth of March works for engineering.'],
  ['spk-dana', 'Legal still needs to sign off on the privacy policy before we can submit the app.'],
  ['spk-maya', 'Okay. So we decided the launch date is the fourteenth of March.'],
  ['spk-maya', 'Next, the launch party. Daniel, please book the venue.'],
  ['spk-daniel', 'Sure, I will book the venue for the launch party by Friday.'],
  ['spk-dana', 'We should invite the beta testers to the party too, they gave us a lot of feedback.'],
  ['spk-maya', 'Good idea. Dana to schedule a follow-up with legal about the privacy policy next week.'],
  ['spk-dana', 'Fine, I can do that.'],
  ['spk-maya', 'Then the press. The journalists want a press kit with screenshots and a short video.'],
  ['spk-daniel', 'The screenshots in the app store still show the old onboarding screens.'],
  ['spk-maya', 'Daniel Ortiz will update the screenshots for the app store by Monday.'],
  ['spk-maya', 'Can you draft the answers for the support team, Dana?'],
  ['spk-maya', 'Last, the pricing. Are we charging for the premium tier at launch or later?'],
  ['spk-daniel', 'I think we should keep the premium tier free for the first month, it drives sign-ups.'],
  ['spk-dana', 'The price of the premium tier after that month is still an open question, finance has not answered yet.'],
  ['spk-maya', "Let's go with a free first month for the premium tier. Great, thanks everyone."],
];

/** 18 turns of 20 seconds: six minutes. */
export const launchMeeting = (): NotesTranscript => ({
  title: 'Launch sync',
  startedAt: '2026-12-01T09:00:00.000Z',
  timeZone: 'Europe/Berlin',
  speakers: LAUNCH_SPEAKERS,
  segments: LINES.map(([speakerId, text], i) => ({ id: `launch-${i + 1}`, speakerId, startMs: i * 20_000, endMs: (i + 1) * 20_000, text })),
});

/** The meeting's tasks, each once, with the one who owns it (a word of the task to know it by). */
export const LAUNCH_TASKS: ReadonlyArray<{ word: string; ownerSpeakerId: string }> = [
  { word: 'venue', ownerSpeakerId: 'spk-daniel' },
  { word: 'legal', ownerSpeakerId: 'spk-dana' },
  { word: 'screenshots', ownerSpeakerId: 'spk-daniel' },
  { word: 'support', ownerSpeakerId: 'spk-dana' },
];
