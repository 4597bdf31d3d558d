import type { MeetingStatus } from '#shared/contracts/meetings.ts';

/**
 * The meeting lifecycle, written only by the meetings service: recording (a live recording or an
 * imported recording on its way) → processing (audio stored, transcription queued) → ready or failed; a failed
 * transcription may be retried. Each transition names the statuses it may start from, and the
 * repository applies it with a conditional update, so an event that arrives late or twice (a second
 * upload finishing, a job of a meeting already retried) changes nothing. A meeting made from an
 * imported transcript (like a sample) has no audio: it is created ready and takes none of these steps.
 * A recording whose audio never arrives (its upload expired unfinished, or nothing came for
 * UPLOAD_EXPIRY_HOURS) is abandoned: failed with ABANDONED_REASON, so it does not say "Recording" for ever.
 */
export const MEETING_TRANSITIONS = {
  recordingStored: { from: ['recording'], to: 'processing' },
  recordingUnreadable: { from: ['recording'], to: 'failed' },
  recordingAbandoned: { from: ['recording'], to: 'failed' },
  transcriptionSucceeded: { from: ['processing'], to: 'ready' },
  transcriptionFailed: { from: ['processing'], to: 'failed' },
  transcriptionRetried: { from: ['failed'], to: 'processing' },
} as const satisfies Record<string, { from: readonly MeetingStatus[]; to: MeetingStatus }>;

export type MeetingTransition = keyof typeof MEETING_TRANSITIONS;

/** What a meeting whose recording never arrived says (the web shows a failed meeting's reason). */
export const ABANDONED_REASON = 'The recording never finished uploading.';
