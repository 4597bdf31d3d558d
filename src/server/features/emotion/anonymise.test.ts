import { describe, expect, it } from 'vitest';
import { anonymise } from './anonymise.ts';

describe('anonymise: what the emotion provider may read of a line', () => {
  it.each([
    ['I am so glad Maria Lopez joined us.', [], 'I am so glad [name] joined us.'],
    ['maria was upset about it', ['Maria Lopez'], '[name] was upset about it'],
    ['Write to ops@example.com or see https://wiki.example.com/x?y=1 today.', [], 'Write to [email] or see [link] today.'],
    ['The deal is $12,500 and 30% off, call +1 555-0100 on 12/03.', [], 'The deal is [number] and [number] off, call [number] [number] on [number].'],
    ['We lost twenty five customers to Acme.', [], 'We lost [number] customers to [name].'],
    ['Dr. Smith said it went well. Great work, team!', [], '[name] said it went well. Great work, team!'],
    ["Honestly I'm worried. I think we are late.", [], "Honestly I'm worried. I think we are late."],
  ])('%s', (line, names, expected) => {
    expect(anonymise(line, names)).toBe(expected);
  });
});
