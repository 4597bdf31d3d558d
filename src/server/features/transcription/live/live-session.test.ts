import { describe, expect, it } from 'vitest';
import { createRecordingClock, deinterleave } from './live-session.ts';

describe('the live recording clock', () => {
  it('takes the silence written at each pause out of the recogniser’s times', () => {
    const clock = createRecordingClock(5000);
    clock.advance(2000);
    clock.insertSilence(1200); // paused at 2 s of audio
    clock.advance(3000);
    clock.insertSilence(1200); // paused again at 5 s
    clock.advance(1000);
    expect(clock.toRecordingMs(1500)).toBe(6500); // before any pause: offset + time
    expect(clock.toRecordingMs(2600)).toBe(7000); // inside the first silence: where the pause was
    expect(clock.toRecordingMs(4200)).toBe(8000); // after it: 1.2 s less
    expect(clock.toRecordingMs(7400)).toBe(10_000); // inside the second silence
    expect(clock.toRecordingMs(8000)).toBe(10_600); // after both: 2.4 s less
  });
});

describe('deinterleave', () => {
  it('splits L R L R samples into one buffer per channel', () => {
    const stereo = Buffer.from(new Int16Array([1, -1, 2, -2, 32767, -32768]).buffer);
    const [left, right] = deinterleave(stereo, 2);
    expect([...new Int16Array(left!.buffer, left!.byteOffset, 3)]).toEqual([1, 2, 32767]);
    expect([...new Int16Array(right!.buffer, right!.byteOffset, 3)]).toEqual([-1, -2, -32768]);
    expect(deinterleave(stereo, 1)[0]).toBe(stereo);
  });
});
