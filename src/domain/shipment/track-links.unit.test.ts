import { describe, expect, it } from 'vitest';
import { newTrackToken, TRACK_TOKEN_PATTERN } from './track-links.js';

describe('newTrackToken', () => {
  it('gives 22 base64url characters, each token its own across refills of the drawn entropy', () => {
    // 1,000 tokens span four refills of the 256 tokens' worth drawn at a time.
    const tokens = Array.from({ length: 1_000 }, () => newTrackToken());
    expect(tokens.every((token) => token.length === 22 && new RegExp(TRACK_TOKEN_PATTERN).test(token))).toBe(true);
    expect(new Set(tokens).size).toBe(1_000);
  });

  it('spreads its bits over the whole alphabet (no refill hands out zeros)', () => {
    const seen = new Set(Array.from({ length: 600 }, () => newTrackToken()).join(''));
    // 13,200 characters drawn from 64: a fixed or zeroed stretch would leave most of them out.
    expect(seen.size).toBe(64);
  });
});
