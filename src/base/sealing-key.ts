import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';

/** The key file's name in DATA_DIR. */
export const KEY_FILE = 'secrets.key';

/** Where the key that seals credentials comes from (docs/decisions.md, "The sealing key lives outside the database"). */
export type KeySource = 'environment' | 'file';

/** The sealing key cannot be used: a key file that is no key, or one that went missing. Stops start-up. */
export class SealingKeyError extends ConfigError {}

/** The key in `file`, or undefined when there is none; `warn` hears of a file others may read. */
export function readKeyFile(file: string, warn: (message: string) => void): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SealingKeyError(`${file} (the key that seals credentials) cannot be read: ${(error as Error).message}`);
  }
  const key = text.trim();
  if (key.length < 32)
    throw new SealingKeyError(
      `${file} is not a sealing key (it must hold at least 32 characters): restore it, or set SECRETS_KEY`,
    );
  if ((fs.statSync(file).mode & 0o077) !== 0)
    warn(`${file}, the key that seals credentials, may be read by other users of this machine: chmod 600 it`);
  return key;
}

/**
 * Makes the key file, readable by its owner alone, and answers the key in it. Written beside it and
 * linked into place, so that processes starting at once (a cluster, the delivery thread) all end
 * up with the one key that won, never with a file half written.
 */
export function createKeyFile(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, KEY_FILE);
  const draft = path.join(dir, `.${KEY_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
  const fd = fs.openSync(draft, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${randomBytes(32).toString('base64url')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.unlinkSync(draft);
  }
  const key = readKeyFile(file, () => {});
  if (key === undefined) throw new SealingKeyError(`${file} vanished as it was made`);
  return key;
}
