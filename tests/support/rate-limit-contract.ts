import { expect, it } from 'vitest';
import type { RateLimiters } from '#server/lib/rate-limit.ts';

/**
 * What every feature's limiter relies on, whatever store backs the rate-limit port: run against the
 * memory adapter and the Redis one. `make` answers a fresh factory (a fresh namespace in a shared store).
 */
export function rateLimiterContract(make: () => RateLimiters): void {
  it('allows a key its points in a window, then refuses it with the time left; other keys keep their own count', async () => {
    const limiter = make().limiter({ keyPrefix: 'questions', points: 3, duration: 60 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limiter.consume('ada'));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.remainingPoints)).toEqual([2, 1, 0, 0]);
    expect(answers[3]!.msBeforeNext).toBeGreaterThan(0);
    expect(answers[3]!.msBeforeNext).toBeLessThanOrEqual(60_000);
    expect(await limiter.consume('bob')).toMatchObject({ allowed: true, consumedPoints: 1, remainingPoints: 2 });
    expect((await limiter.consume('bob', 2)).allowed).toBe(true);
    expect((await limiter.consume('bob')).allowed).toBe(false);
  });

  it('reads a key’s use without spending it, and nothing for a key never used', async () => {
    const limiter = make().limiter({ keyPrefix: 'reads', points: 5, duration: 60 });
    expect(await limiter.get('ada')).toBeUndefined();
    await limiter.consume('ada', 2);
    expect(await limiter.get('ada')).toMatchObject({ consumedPoints: 2, remainingPoints: 3 });
    expect(await limiter.get('ada')).toMatchObject({ consumedPoints: 2, remainingPoints: 3 });
  });

  it('counts a penalty past the points without refusing it, so the next use is refused', async () => {
    const limiter = make().limiter({ keyPrefix: 'failures', points: 2, duration: 60 });
    const counted = [];
    for (let i = 0; i < 3; i++) counted.push(await limiter.penalty('192.0.2.1'));
    expect(counted.map((c) => c.consumedPoints)).toEqual([1, 2, 3]);
    expect(await limiter.penalty('192.0.2.1', 1500)).toMatchObject({ consumedPoints: 1503, remainingPoints: 0 });
    expect((await limiter.consume('192.0.2.1')).allowed).toBe(false);
  });

  it('forgets a deleted key: it starts again with all its points', async () => {
    const limiter = make().limiter({ keyPrefix: 'pairs', points: 1, duration: 60 });
    await limiter.consume('ada');
    expect((await limiter.consume('ada')).allowed).toBe(false);
    await limiter.delete('ada');
    expect(await limiter.get('ada')).toBeUndefined();
    expect((await limiter.consume('ada')).allowed).toBe(true);
  });

  it('keeps each limiter’s counts apart, and refuses a second limiter under a name already taken', async () => {
    const limiters = make();
    const perIp = limiters.limiter({ keyPrefix: 'perIp', points: 1, duration: 60 });
    const perEmail = limiters.limiter({ keyPrefix: 'perEmail', points: 1, duration: 60 });
    await perIp.consume('same-key');
    expect((await perEmail.consume('same-key')).allowed).toBe(true);
    expect(() => limiters.limiter({ keyPrefix: 'perIp', points: 5, duration: 1 })).toThrow('A rate limiter named perIp already exists');
  });
}
