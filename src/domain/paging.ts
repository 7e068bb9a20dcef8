// Cursors and day ranges the money listings share (charges, weight disputes). Pure.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const IST_OFFSET_MS = 330 * 60_000;

/** An opaque cursor naming the last row of a page, newest first: its time and id. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.getTime()}.${id}`).toString('base64url');
}

/** The row a cursor names, or null when it is not one this API wrote. */
export function decodeCursor(cursor: string): { at: Date; id: string } | null {
  const [ms, id, ...rest] = Buffer.from(cursor, 'base64url').toString('latin1').split('.');
  if (rest.length > 0 || !ms || !/^\d{1,15}$/.test(ms) || !id || !UUID.test(id)) return null;
  return { at: new Date(Number(ms)), id };
}

/** The instant an India calendar day (YYYY-MM-DD, already checked as a real date) begins; `+1` for the next day's. */
export function indiaDayStart(day: string, plusDays = 0): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - IST_OFFSET_MS + plusDays * 86_400_000);
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}
