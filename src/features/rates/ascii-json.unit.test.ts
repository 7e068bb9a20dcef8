import { describe, expect, it } from 'vitest';
import { AsciiJsonWriter, asciiBytes, asciiJson } from './ascii-json.js';

const written = (write: (writer: AsciiJsonWriter) => void, maxBytes = 64) => {
  const writer = new AsciiJsonWriter(maxBytes);
  write(writer);
  return writer.finish().toString('latin1');
};

describe('AsciiJsonWriter numbers', () => {
  it.each([0, 1, 9, 10, 99, 100, 101, 12_345, 1_000_000, 2_500_000_000, Number.MAX_SAFE_INTEGER])(
    'integer %d as JSON writes it',
    (value) => {
      expect(written((w) => w.integer(value))).toBe(JSON.stringify(value));
    },
  );

  it.each([
    [0, '0'],
    [5, '0.05'],
    [50, '0.5'],
    [99, '0.99'],
    [100, '1'],
    [3_705, '37.05'],
    [3_750, '37.5'],
    [12_200, '122'],
    [15_950, '159.5'],
    [123_457, '1234.57'],
    [2_500_000_000, '25000000'],
  ])('hundredths %d → %s, what JSON.stringify gives for n / 100', (hundredths, text) => {
    expect(written((w) => w.hundredths(hundredths))).toBe(text);
    expect(JSON.stringify(hundredths / 100)).toBe(text);
  });

  it('agrees with JSON.stringify(n / 100) for every value up to 100,000 and a spread of larger ones', () => {
    const values = Array.from({ length: 100_001 }, (_, i) => i);
    // A fixed spread up to ~1e13 (any amount or weight the engine makes is far smaller).
    for (let i = 1; i <= 2_000; i++) values.push((i * 4_999_999_937) % 10_000_000_000_000);
    const mismatches = values.filter((value) => written((w) => w.hundredths(value)) !== JSON.stringify(value / 100));
    expect(mismatches).toEqual([]);
  });
});

describe('AsciiJsonWriter text and fragments', () => {
  it('copies fragments, bytes and ASCII text in order', () => {
    const body = written((w) =>
      w.fragment(asciiBytes('{"a":')).integer(7).byte(0x2c).text('"b"').fragment(asciiBytes('}')),
    );
    expect(body).toBe('{"a":7,"b"}');
  });

  it('refuses text beyond ASCII instead of mangling it', () => {
    expect(() => written((w) => w.text('₹'))).toThrow('not ASCII');
    expect(() => asciiBytes('café')).toThrow('not ASCII');
  });

  it('refuses to write past the bytes it reserved', () => {
    expect(() => written((w) => w.text('12345'), 4)).toThrow('more written than maxBytes');
    expect(() => written((w) => w.integer(12_345), 4)).toThrow('more written than maxBytes');
    expect(() => written((w) => w.fragment(asciiBytes('12345')), 4)).toThrow('more written than maxBytes');
  });

  it('gives every body bytes of its own, even when writers overlap', () => {
    const first = new AsciiJsonWriter(32);
    const second = new AsciiJsonWriter(32);
    first.text('first');
    second.text('second');
    const firstBody = first.finish();
    const bodies = Array.from({ length: 100 }, (_, i) => new AsciiJsonWriter(512).integer(i).finish());
    expect([firstBody.toString(), second.finish().toString()]).toEqual(['first', 'second']);
    expect(bodies.map((body) => Number(body.toString()))).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('hands out only what was written, not the room reserved', () => {
    const body = new AsciiJsonWriter(4_096).text('{}').finish();
    expect(body.length).toBe(2);
    expect(body.toString()).toBe('{}');
  });
});

describe('asciiJson', () => {
  it('escapes everything past U+007E, so the text stays ASCII and parses back the same', () => {
    const value = 'Bharat "Fast" \\ ₹ Cargo\n\u2028';
    const text = asciiJson(value);
    expect(text).toBe('"Bharat \\"Fast\\" \\\\ \\u20b9 Cargo\\n\\u2028"');
    expect(JSON.parse(text)).toBe(value);
  });
});
