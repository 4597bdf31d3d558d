/**
 * A line in the transcript panel. `endMs`: where a live line ends in the recording, for the
 * latency measurement.
 */
export type TranscriptLine = { time: string; speaker: string; text: string; endMs?: number };

/** The spec's simulated recording: canned lines with speakers and timestamps, for the demo. */
export const DEMO_LINES: TranscriptLine[] = [
  { time: '00:00', speaker: 'Alex Johnson', text: "Good morning everyone, thanks for joining. Let's start with the project updates." },
  { time: '00:05', speaker: 'Sarah Miller', text: 'The design team finished the mockups for the new dashboard. I will share them after this call.' },
  { time: '00:12', speaker: 'David Chen', text: 'Backend work is on track. We should have the API endpoints ready by Friday.' },
  { time: '00:20', speaker: 'Alex Johnson', text: 'Great. Any blockers we need to discuss?' },
  { time: '00:24', speaker: 'Emma Wilson', text: 'We still need the final copy for the onboarding emails before we can test them.' },
  { time: '00:31', speaker: 'Sarah Miller', text: 'I can take that. I will send a draft by tomorrow afternoon.' },
  { time: '00:38', speaker: 'Alex Johnson', text: "Perfect. Let's plan to review everything together next Monday." },
];
