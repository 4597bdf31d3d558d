import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateLimiterContract } from '#tests/support/rate-limit-contract.ts';
import { createMemoryRateLimiters } from './rate-limit.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the memory rate limiters', () => {
  rateLimiterContract(createMemoryRateLimiters);

  it('start a key’s count again once its window has passed', async () => {
    vi.useFakeTimers();
    const limiter = createMemoryRateLimiters().limiter({ keyPrefix: 'window', points: 1, duration: 60 });
    expect((await limiter.consume('ada')).allowed).toBe(true);
    vi.advanceTimersByTime(59_000);
    expect((await limiter.consume('ada')).allowed).toBe(false);
    vi.advanceTimersByTime(1_001);
    expect(await limiter.get('ada')).toBeUndefined();
    expect((await limiter.consume('ada')).allowed).toBe(true);
  });

  it('keep another factory’s counts apart (another server in the same process, as tests build)', async () => {
    await createMemoryRateLimiters().limiter({ keyPrefix: 'perIp', points: 1, duration: 60 }).consume('same-key');
    expect((await createMemoryRateLimiters().limiter({ keyPrefix: 'perIp', points: 1, duration: 60 }).consume('same-key')).allowed).toBe(true);
  });
});
