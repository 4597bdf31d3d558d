import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

const OWASP = { memoryKib: 19_456, passes: 2 };
const CHEAP = { memoryKib: 64, passes: 1 };

describe('password hashes', () => {
  it('are argon2id at the given cost, and a hash made at one cost still verifies after the cost changes', async () => {
    const stored = await hashPassword('correct horse', CHEAP);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(await hashPassword('correct horse', OWASP)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('correct horse', stored, OWASP)).toBe(true);
    expect(await verifyPassword('wrong horse', stored, OWASP)).toBe(false);
  });

  it('never match an unknown account or a malformed stored hash', async () => {
    expect(await verifyPassword('anything', null, CHEAP)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash', CHEAP)).toBe(false);
  });
});
