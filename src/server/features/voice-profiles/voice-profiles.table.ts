/** Tables of the voice-profiles feature (migration 2026-12-08-0200). */

/** A person's voice profile: who, and the one team whose members' meetings may name them. */
export type VoiceProfilesTable = {
  user_id: string;
  /** null: only the person's own meetings use it. */
  team_id: string | null;
  created_at: string;
  updated_at: string;
};

/** One description of the person's voice, from one speaker of one meeting (never audio). */
export type VoiceProfileSamplesTable = {
  id: string;
  user_id: string;
  meeting_id: string;
  /** The meeting's title when the voice came in: the profile names its sources even after a meeting is deleted. */
  meeting_title: string;
  speaker_id: string;
  via: 'enrolment' | 'suggestion';
  /** How the numbers were made (`built-in`, `sherpa-onnx:<model>`): only numbers of one path are compared. */
  path: string;
  /** The embedding as a JSON array of numbers. */
  embedding: string;
  created_at: string;
  /**
   * Numbers of an older `path` are learned again from the meeting (migration 2026-12-11-0100):
   * why they could not be (the person's words), when the recording or the speaker is gone.
   */
  relearn_error: string | null;
};

/**
 * Consent, recorded: who (person_id) agreed or declined, when (decided_at), to a voice from which
 * meeting (meeting_id, meeting_title), asked by whom (requested_by; the person themself for "this
 * speaker is me"). `withdrawn` once the person deletes their profile.
 */
export type VoiceConsentsTable = {
  id: string;
  person_id: string;
  requested_by: string;
  meeting_id: string;
  meeting_title: string;
  speaker_id: string;
  /** The team the request came through (or the person chose), used once accepted. */
  team_id: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn';
  created_at: string;
  decided_at: string | null;
  /**
   * Once accepted, the voice is learned in a job (migration 2026-12-09-0300): `pending` until it is,
   * `failed` (with `learning_error`, the person's words) when it could not be; null once learned.
   */
  learning: 'pending' | 'failed' | null;
  learning_error: string | null;
};

/** "Is this Tomasz?": a speaker close to a profile but not surely them, until the meeting's owner answers. */
export type VoiceSuggestionsTable = {
  id: string;
  meeting_id: string;
  speaker_id: string;
  person_id: string;
  similarity: number;
  status: 'open' | 'accepted' | 'rejected';
  created_at: string;
  decided_at: string | null;
  /** Once accepted, the voice is taught to the profile in a job: as on `voice_consents`. */
  learning: 'pending' | 'failed' | null;
  learning_error: string | null;
};

export type VoiceProfileTables = {
  voice_profiles: VoiceProfilesTable;
  voice_profile_samples: VoiceProfileSamplesTable;
  voice_consents: VoiceConsentsTable;
  voice_suggestions: VoiceSuggestionsTable;
};
