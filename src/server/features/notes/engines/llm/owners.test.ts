import { describe, expect, it } from 'vitest';
import type { NotesTranscript } from '../../notes-types.ts';
import { resolveOwner } from './owners.ts';

const transcript: NotesTranscript = {
  title: 't',
  startedAt: '2026-01-01T10:00:00Z',
  timeZone: 'UTC',
  speakers: [
    { id: 'a', label: 'Speaker 1', name: 'Ana Lima' },
    { id: 'b', label: 'Speaker 2', name: null },
    { id: 'c', label: 'Speaker 3', name: 'José' },
  ],
  segments: [
    { id: 's1', speakerId: 'b', startMs: 0, endMs: 1, text: "I'll send the deck." },
    { id: 's2', speakerId: 'a', startMs: 1, endMs: 2, text: 'Dana from legal will review it, and we also check the numbers.' },
  ],
};

describe('resolveOwner', () => {
  it('makes "me" and "I" the speaker of the earliest cited segment, by label when unnamed', () => {
    expect(resolveOwner('me', ['s1'], transcript)).toEqual({ assignee: 'Speaker 2', assigneeSpeakerId: 'b' });
    expect(resolveOwner('I', ['s2'], transcript)).toEqual({ assignee: 'Ana Lima', assigneeSpeakerId: 'a' });
    expect(resolveOwner('I', ['s2', 's1'], transcript)).toEqual({ assignee: 'Speaker 2', assigneeSpeakerId: 'b' });
  });

  it('matches a speaker by full name, first name, label, case and accents aside', () => {
    expect(resolveOwner('ana', ['s1'], transcript)).toEqual({ assignee: 'Ana Lima', assigneeSpeakerId: 'a' });
    expect(resolveOwner('Ana Lima', ['s1'], transcript).assigneeSpeakerId).toBe('a');
    expect(resolveOwner('jose', ['s1'], transcript)).toEqual({ assignee: 'José', assigneeSpeakerId: 'c' });
    expect(resolveOwner('speaker 2', ['s1'], transcript).assigneeSpeakerId).toBe('b');
  });

  it('keeps a person who is no speaker only when the cited words name them', () => {
    expect(resolveOwner('Dana', ['s2'], transcript)).toEqual({ assignee: 'Dana', assigneeSpeakerId: null });
    expect(resolveOwner('Dana', ['s1'], transcript)).toEqual({ assignee: null, assigneeSpeakerId: null });
    expect(resolveOwner('Al', ['s2'], transcript)).toEqual({ assignee: null, assigneeSpeakerId: null }); // not "also"
  });

  it('leaves the team, "you" and nobody unassigned', () => {
    for (const owner of [null, '', 'we', 'The team', 'you', 'Unassigned'])
      expect(resolveOwner(owner, ['s1'], transcript)).toEqual({ assignee: null, assigneeSpeakerId: null });
  });
});
