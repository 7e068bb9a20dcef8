import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { EVENT_TYPES } from '../domain/shipment/event-types.js';

// docs/webhooks.md's table is what a receiver reads before subscribing: a type missing from it is
// one nobody knows to ask for, so every type the log records must have its row, and no row may
// name a type the log does not record.
const docs = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

/** The event types named in the first cell of each row of the table under `| type | when | `data` |`. */
function documentedTypes(): string[] {
  const lines = docs.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| type | when |'));
  expect(start, 'the event table in docs/webhooks.md').toBeGreaterThanOrEqual(0);
  const rows = lines.slice(start + 2);
  const table = rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
  return table.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!));
}

it('docs/webhooks.md has a row for every event type the log records, and for none other', () => {
  const documented = documentedTypes();
  expect(EVENT_TYPES.filter((type) => !documented.includes(type))).toEqual([]);
  expect(documented.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
  expect(new Set(documented).size).toBe(documented.length);
});
