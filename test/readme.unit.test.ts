import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONNECTOR_NAMES } from '../src/domain/rates/catalogue.js';

// The README as a new user reads it from a clean clone (its first steps run in CI:
// .ci/readme-first-steps): the connectors listed once, each of them, the same way.

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('lists every connector once, in one table, with what it needs', () => {
    // The table's rows (its header names the column `connector`).
    const rows = readme.split('\n').filter((line) => /^\| `(?!connector`)[a-z]+` \|/.test(line));
    expect(rows.map((row) => /^\| `([a-z]+)`/.exec(row)![1]).sort()).toEqual([...CONNECTOR_NAMES].sort());
    // No second, shorter list of them elsewhere (the old "connector: push, sandbox or delhivery").
    expect(readme.match(/`push`, `sandbox`/g)).toBeNull();
    for (const variable of ['DELHIVERY_API_TOKEN', 'EKART_CLIENT_ID', 'XPRESSBEES_EMAIL', 'SHADOWFAX_TOKEN'])
      expect(
        rows.some((row) => row.includes(variable)),
        variable,
      ).toBe(true);
  });

  it('sets the port once in the first steps, derives BASE from it and keeps the server log out of the answers', () => {
    const firstSteps = readme.split('\n## First steps\n')[1]!.split('\n## ')[0]!;
    expect(firstSteps).toContain('export PORT=3000');
    expect(firstSteps).toContain('BASE=http://127.0.0.1:$PORT');
    const starts = firstSteps.split('\n').filter((line) => /^(\S+=\S+ )*npm start/.test(line));
    expect(starts.length).toBeGreaterThanOrEqual(2);
    for (const start of starts) expect(start).toMatch(/npm start >>? \.local\/server\.log 2>&1 &/);
  });
});
