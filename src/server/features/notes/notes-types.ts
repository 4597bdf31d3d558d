/**
 * The contract between a meeting's transcript and the engines that write its notes (summary, key
 * points, topics, action items, decisions). Every item cites the transcript segments it comes from,
 * so the notes can jump to the moment something was said and citations can be checked.
 */

export type NotesSpeaker = {
  id: string;
  /** "Speaker 1", or the capture source ("You", "Tab"). */
  label: string;
  /** The name a person gave the speaker, when they did. */
  name: string | null;
};

export type NotesSegment = {
  id: string;
  speakerId: string | null;
  startMs: number;
  endMs: number;
  text: string;
};

/** What an engine reads: the meeting's transcript in time order, with its speakers and date. */
export type NotesTranscript = {
  title: string;
  /** When the meeting started (ISO-8601): "by Friday", "tomorrow" and "the 10th" resolve against it. */
  startedAt: string;
  /** IANA time zone of the meeting's owner, for what "today" and "tomorrow" mean; "UTC" when unknown. */
  timeZone: string;
  speakers: NotesSpeaker[];
  segments: NotesSegment[];
  /** The meeting's custom vocabulary (names, products, terms), so they are spelled right; absent or empty: none. */
  vocabulary?: readonly string[];
};

/** A statement in the notes and the segments (ids, in transcript order, at least one) it comes from. */
export type CitedItem = { text: string; segmentIds: string[] };

export type TopicItem = CitedItem & { startMs: number; endMs: number };

export type ActionItemDraft = CitedItem & {
  /** Who does it: a speaker's name, a named person ("Sam will…"), or null when nobody is named ("Unassigned"). */
  assignee: string | null;
  /** Set when the assignee is a speaker of this meeting, so renaming the speaker renames the assignee. */
  assigneeSpeakerId: string | null;
  /** The due date resolved against the meeting's date (YYYY-MM-DD), or null when none was said. */
  due: string | null;
  /** The words the due date was read from ("by Friday"), or null. */
  dueText: string | null;
};

export type NotesDraft = {
  /** 60–150 words of plain prose; empty only when the transcript has nothing to summarise. */
  summary: string;
  /**
   * The summary's sentences, each with the segments it was written from, when the engine cites them
   * (both engines do): their texts joined by spaces are the summary. Absent: it cites none.
   */
  summarySentences?: CitedItem[];
  keyPoints: CitedItem[];
  /** Contiguous spans of the meeting in time order, each named by its key phrase. */
  topics: TopicItem[];
  actionItems: ActionItemDraft[];
  decisions: CitedItem[];
};

/** Progress of a long run: "part N of M" (map-reduce chunks, or the local engine's stages). */
export type NotesProgress = (part: number, parts: number) => void;

export type NotesEngineName = 'local' | 'llm';

export type NotesResult = NotesDraft & {
  engine: NotesEngineName;
  /** Items an engine proposed whose citations did not check out: dropped, and counted for the reader. */
  droppedUncited: number;
  /** Parts of the transcript the LLM could not cover, covered by the local engine instead. */
  localFallbackParts: number;
};

export type NotesEngine = {
  name: NotesEngineName;
  generate: (transcript: NotesTranscript, options: { signal: AbortSignal; onProgress?: NotesProgress }) => Promise<NotesResult>;
};
