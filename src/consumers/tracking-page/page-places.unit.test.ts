import { describe, expect, it } from 'vitest';
import { placeName } from './page-places.js';

describe('placeName', () => {
  it("translates the sandbox's words, any case, and leaves a courier's place names as written", () => {
    expect(placeName('Destination hub', 'kn')).toBe('ಗಮ್ಯಸ್ಥಾನ ಹಬ್');
    expect(placeName('origin HUB', 'hi')).toBe('मूल हब');
    expect(placeName('Destination', 'mr')).toBe('गंतव्य');
    expect(placeName('Origin', 'en')).toBe('Origin');
    expect(placeName('Andheri DC', 'hi')).toBe('Andheri DC');
    expect(placeName(null, 'ta')).toBeNull();
  });
});
