import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, declaredCatalogues, ERROR_CODES, errorsDocument, readErrorsDocument } from './error-codes.js';

// The rules that keep error codes a contract: every code comes from a catalogue, every catalogue is
// listed, each code is listed once, and the handbook says what the list says.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => ({ file: `src/${file}`, text: readFileSync(path.join(ROOT, 'src', file), 'utf8') }));

describe('the error codes', () => {
  it('come from catalogues the list holds: every catalogue a *.errors.ts exports is listed', async () => {
    const listed = new Set<unknown>(Object.values(CATALOGUES));
    const unlisted = (await declaredCatalogues()).flatMap(({ file, catalogues }) =>
      catalogues.filter((catalogue) => !listed.has(catalogue)).map(() => file),
    );
    expect(unlisted).toEqual([]);
  });

  it('are made only by a catalogue: no code is cast into being elsewhere', () => {
    const makers = new Set(['src/domain/errors.ts', 'src/http/http.errors.ts']);
    const casts = SOURCES.filter(({ file, text }) => !makers.has(file) && /as DeclaredCode\b/.test(text)).map(
      ({ file }) => file,
    );
    expect(casts).toEqual([]);
  });

  it('are listed once each, in snake_case', () => {
    const codes = ERROR_CODES.map((c) => c.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
    expect(codes.filter((code) => !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(code))).toEqual([]);
  });

  it('are each described, with the status they answer', () => {
    expect(ERROR_CODES.filter((c) => c.description.length < 10 || c.status < 400)).toEqual([]);
  });

  it('are listed in docs/errors.md as the catalogues say (npm run docs:errors writes it)', async () => {
    expect(await readErrorsDocument()).toBe(errorsDocument());
  });
});
