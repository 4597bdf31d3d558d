import { describe, expect, it } from 'vitest';
import { FinalNotesSchema, PartNotesSchema } from './answer-schemas.ts';
import { apiBase } from './chat-client.ts';
import { wireSchema } from './structured-output.ts';

describe('wireSchema', () => {
  it('gives a schema OpenAI strict mode accepts: every field required, no others, no defaults', () => {
    const schema = wireSchema(PartNotesSchema);
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['summaryPoints', 'keyPoints', 'topics', 'actionItems', 'decisions'],
    });
    expect(JSON.stringify(schema)).not.toMatch(/"default"|\$schema/);
  });

  it('lets a looser answer leave empty lists out, but never the summary', () => {
    expect(FinalNotesSchema.parse({ summary: [{ text: 'Short.' }] })).toEqual({
      summary: [{ text: 'Short.', refs: [] }],
      keyPoints: [],
      topics: [],
      actionItems: [],
      decisions: [],
    });
    expect(FinalNotesSchema.safeParse({ keyPoints: [] }).success).toBe(false);
  });
});

describe('apiBase', () => {
  it('adds /v1 to a bare server address and keeps one already there', () => {
    expect(apiBase('http://localhost:11434')).toBe('http://localhost:11434/v1');
    expect(apiBase('http://localhost:8080/v1/')).toBe('http://localhost:8080/v1');
    expect(apiBase('https://api.groq.com/openai/v1')).toBe('https://api.groq.com/openai/v1');
  });
});
