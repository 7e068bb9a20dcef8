import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { isCalendarDate } from '../domain/paging.js';
import { invalid } from '../domain/errors.js';
import { CALENDAR_DAY_PATTERN } from '../domain/date-patterns.js';
import { statedRule } from './stated-rules.js';

// What the CSV exports share on the HTTP side: the answer's media type and headers, and the
// listing query fields (courier, days, cursor, limit, format) of the money listings. The cells
// themselves are made safe by domain/csv.ts.

/** A CSV export's rows: beyond them, the Dakiya-Next-Cursor header continues. */
export const CSV_EXPORT_ROWS = 10_000;

const CsvBody = Type.Unsafe<string>({
  type: 'string',
  description:
    'CSV (RFC 4180, UTF-8), a header line first; a cell a spreadsheet would run as a formula starts with an apostrophe.',
});
/** The `content` of a 200 answer that is JSON or, with format=csv, a CSV file. */
export const csvContent = { 'text/csv': { schema: CsvBody } };

export function sendCsv(reply: FastifyReply, name: string, csv: string, nextCursor: string | null) {
  if (nextCursor) reply.header('dakiya-next-cursor', nextCursor);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.csv"`)
    .send(csv);
}

const Day = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    'x-error': 'must be a date written YYYY-MM-DD',
    ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
    description: `${description} (India date, YYYY-MM-DD).`,
  });

/** One value, or the same query field repeated. */
export const OneOrMany = <T extends Parameters<typeof Type.Array>[0]>(item: T, description: string) =>
  Type.Optional(Type.Union([item, Type.Array(item, { maxItems: 20 })], { description }));

export const ListingQueryFields = {
  carrier_id: OneOrMany(
    Type.String({ minLength: 1, maxLength: 64 }),
    'Only these courier services; repeat for several.',
  ),
  from: Type.Optional(Day('From this day')),
  to: Type.Optional(Day('Up to and including this day')),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'The next_cursor of the page before (or the Dakiya-Next-Cursor header of a CSV).',
    }),
  ),
  limit: Type.Optional(
    Type.String({
      pattern: '^(?:[1-9]\\d?|100)$',
      'x-error': 'must be 1 to 100',
      description: 'Rows per page (1–100; 50). A CSV export holds up to 10,000 rows whatever the limit.',
    }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], {
      'x-error': 'must be json or csv',
      description: 'csv: the same rows as a CSV file.',
    }),
  ),
};

/** The page size a listing query asks for: CSV_EXPORT_ROWS for a CSV. */
export const pageSize = (query: { limit?: string; format?: string }) =>
  query.format === 'csv' ? CSV_EXPORT_ROWS : Number(query.limit ?? 50);

/** from and to must be real days: the pattern lets 2026-02-30 through. */
export function checkListingDays(query: { from?: string; to?: string }) {
  for (const field of ['from', 'to'] as const) {
    const day = query[field];
    if (day !== undefined && !isCalendarDate(day))
      throw invalid(`${field} must be a real date written YYYY-MM-DD`, field);
  }
}
