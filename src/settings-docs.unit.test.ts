import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnyFragment } from './base/settings.js';
import { fragmentFiles, generatedDocuments } from './settings-docs.js';
import { FRAGMENTS } from './settings.js';

// The rules that keep settings owned by their modules: each declared once, in a fragment the
// assembly lists; named in code by at most two source files; read from the environment in one place;
// documented by tables generated from the declarations.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file: `src/${file}`, text: readFileSync(path.join(ROOT, 'src', file), 'utf8') }));
const VARIABLES = Object.values(FRAGMENTS as Record<string, AnyFragment>).flatMap((fragment) =>
  Object.values(fragment.settings).flatMap((spec) => (spec.env === undefined ? [] : [spec.env])),
);

describe('the settings fragments', () => {
  it('are all assembled: every *.settings.ts fragment is listed in settings.ts', async () => {
    const { files, unlisted } = await fragmentFiles();
    expect(unlisted).toEqual([]);
    expect(files.size).toBe(Object.keys(FRAGMENTS).length);
  });

  it('declare each environment variable once', () => {
    expect(VARIABLES.filter((name, i) => VARIABLES.indexOf(name) !== i)).toEqual([]);
  });

  it('name each variable in code in at most two source files: its fragment, and one that explains it', () => {
    const crowded = VARIABLES.flatMap((name) => {
      // Code names a variable as a string of its own, or as a property of an environment.
      const named = new RegExp(`['"\`]${name}['"\`]|env\\.${name}\\b|env\\[['"]${name}['"]\\]`);
      const files = SOURCES.filter(({ text }) => named.test(text)).map(({ file }) => file);
      return files.length > 2 ? [`${name}: ${files.join(', ')}`] : [];
    });
    expect(crowded).toEqual([]);
  });

  it('are read from the environment in one place: process.env appears only in src/settings.ts', () => {
    const readers = SOURCES.filter(({ text }) => /process\.env\b/.test(text)).map(({ file }) => file);
    expect(readers).toEqual(['src/settings.ts']);
  });

  it("document themselves: README's and docs/operations.md's tables are as the fragments generate them (npm run docs:settings)", async () => {
    // The table alone, so that a difference shows its rows rather than the whole document.
    const table = (text: string) =>
      text.slice(text.indexOf('<!-- settings table'), text.indexOf('<!-- end of settings'));
    for (const [file, expected] of await generatedDocuments()) {
      const actual = readFileSync(path.join(ROOT, file), 'utf8');
      expect(table(actual), `${file} is out of date: run npm run docs:settings`).toBe(table(expected));
      expect(actual).toBe(expected);
    }
  });
});
