import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from './secret-box.js';

const KEY = 'k'.repeat(32);

describe('secret box', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    const box = createSecretBox(KEY);
    const a = box.seal('EAAG-token');
    const b = box.seal('EAAG-token');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('EAAG');
    expect(box.open(a)).toBe('EAAG-token');
  });

  it('refuses a value sealed under another key, naming it, and a tampered one', () => {
    const sealed = createSecretBox(KEY).seal('secret');
    expect(() => createSecretBox('x'.repeat(32)).open(sealed)).toThrow(/sealed under another key/);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(() => createSecretBox(KEY).open(tampered)).toThrow(SecretBoxError);
    expect(() => createSecretBox(KEY).open('plain')).toThrow('not a sealed secret');
  });

  it('fingerprints a text with an HMAC of its own per purpose, which another key cannot reproduce', () => {
    const box = createSecretBox(KEY);
    const mac = box.mac('idempotency', '{"account_number":"501004321904521"}');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(box.mac('idempotency', '{"account_number":"501004321904521"}')).toBe(mac);
    expect(box.mac('other', '{"account_number":"501004321904521"}')).not.toBe(mac);
    expect(createSecretBox('x'.repeat(32)).mac('idempotency', '{"account_number":"501004321904521"}')).not.toBe(mac);
    // The purpose and the text are kept apart: moving a character across them changes the mark.
    expect(box.mac('ab', 'c')).not.toBe(box.mac('a', 'bc'));
  });
});
