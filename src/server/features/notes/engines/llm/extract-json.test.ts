import { describe, expect, it } from 'vitest';
import { extractJson } from './extract-json.ts';

describe('extractJson', () => {
  it('reads a whole JSON answer', () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ a: 1 });
  });

  it('picks the object out of prose and a code fence, braces inside strings included', () => {
    expect(extractJson('Sure! {not json} Here:\n```json\n{"text": "a } brace", "n": {"x": [1]}}\n```\nBye')).toEqual({ text: 'a } brace', n: { x: [1] } });
  });

  it('repairs nothing: a truncated object is no answer', () => {
    expect(extractJson('{"summaryPoints": ["one", "tw')).toBeUndefined();
    expect(extractJson('no json here')).toBeUndefined();
  });
});
