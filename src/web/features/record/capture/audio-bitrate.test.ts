import { describe, expect, it } from 'vitest';
import { formatBitrate } from '#web/lib/format.ts';
import { recordingBitrate } from './audio-bitrate.ts';

describe('the bitrate of a new recording', () => {
  it('follows Settings › Recording › Audio Quality, and "High Quality Audio" raises this one recording to 128 kbit/s', () => {
    const qualities = ['standard', 'high', 'ultra'] as const;
    expect(qualities.map((quality) => formatBitrate(recordingBitrate(quality, false)))).toEqual(['32 kbit/s', '48 kbit/s', '96 kbit/s']);
    expect(qualities.map((quality) => recordingBitrate(quality, true))).toEqual([128_000, 128_000, 128_000]);
  });
});
