import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyFile, KEY_FILE, readKeyFile, SealingKeyError } from './sealing-key.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-key-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const folder = (name: string) => path.join(root, name);

describe('the sealing key file', () => {
  it('is made with its folder, readable by its owner alone, and read back the same', () => {
    const dir = folder('fresh/data');
    const key = createKeyFile(dir);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(readKeyFile(path.join(dir, KEY_FILE), () => {})).toBe(key);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('made by two starts at once, holds one key, which both answer', () => {
    const dir = folder('race');
    const keys = [createKeyFile(dir), createKeyFile(dir), createKeyFile(dir)];
    expect(new Set(keys).size).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('is none when missing; refused when it is no key; a warning when others may read it', () => {
    expect(readKeyFile(folder('nowhere/secrets.key'), () => {})).toBeUndefined();
    const dir = folder('bad');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, KEY_FILE), 'short\n', { mode: 0o600 });
    expect(() => readKeyFile(path.join(dir, KEY_FILE), () => {})).toThrow(SealingKeyError);
    fs.writeFileSync(path.join(dir, KEY_FILE), `${'k'.repeat(40)}\n`);
    fs.chmodSync(path.join(dir, KEY_FILE), 0o644);
    const warnings: string[] = [];
    expect(readKeyFile(path.join(dir, KEY_FILE), (w) => warnings.push(w))).toBe('k'.repeat(40));
    expect(warnings).toEqual([
      `${path.join(dir, KEY_FILE)}, the key that seals credentials, may be read by other users of this machine: chmod 600 it`,
    ]);
  });
});
