import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Seals small secrets (a provider's access token, an auth key) for storage: AES-256-GCM with a
 * fresh 96-bit nonce per value. The stored text is `v1.<key id>.<nonce>.<ciphertext+tag>`
 * (base64url): the key id (the first 8 hex of the key's SHA-256) makes a value sealed under another
 * key fail with a message that says so, rather than as a corrupt value.
 */
export interface SecretBox {
  /** The first 8 hex of the key's hash, which every value sealed under it starts with (`v1.<key id>.`). */
  readonly keyId: string;
  seal(plain: string): string;
  open(sealed: string): string;
  /**
   * An HMAC-SHA256 of `text` under the box's key, apart for each `purpose`: a fingerprint of
   * something kept (a request body) that nobody without the key can test guesses against.
   */
  mac(purpose: string, text: string): string;
}

export class SecretBoxError extends Error {}

/** `keyMaterial`: SECRETS_KEY, or the key file in DATA_DIR; any text of 32+ characters, hashed to 256 bits. */
export function createSecretBox(keyMaterial: string): SecretBox {
  const key = createHash('sha256').update(keyMaterial, 'utf8').digest();
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return {
    keyId,
    mac: (purpose, text) => createHmac('sha256', key).update(purpose).update('\0').update(text).digest('hex'),
    seal(plain) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `v1.${keyId}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, id, nonce, body] = sealed.split('.');
      if (version !== 'v1' || !id || !nonce || !body) throw new SecretBoxError('not a sealed secret');
      if (id !== keyId)
        throw new SecretBoxError(`sealed under another key (${id}); SECRETS_KEY changed since it was stored`);
      const bytes = Buffer.from(body, 'base64url');
      if (bytes.length < 16) throw new SecretBoxError('sealed secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError('sealed secret fails its integrity check');
      }
    },
  };
}

/** The id of the key a stored value was sealed under, or undefined when it is not a sealed value. */
export const keyIdOf = (sealed: string): string | undefined => /^v1\.([0-9a-f]{8})\./.exec(sealed)?.[1];
