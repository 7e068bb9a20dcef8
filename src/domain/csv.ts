/**
 * CSV as RFC 4180 writes it: fields separated by commas, a field in double quotes when it holds a
 * comma, a quote or a line break, a quote inside written twice. Pure text in and out. The panel's
 * own exports use it too (web/ imports this file, scripts/build-web.mjs keys its build on it), so
 * that every CSV Dakiya hands a merchant neutralises formulas the same way: it imports nothing.
 */

/** One record of a parsed file and the line it starts on (1 is the header's), for error reports. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Every record of `text`, blank lines skipped. A quoted field may span lines, so a record's line is
 * where it starts. A quote left open at the end of the file is reported by its opening line.
 */
export function parseCsv(text: string): { records: CsvRecord[]; unclosedQuoteLine: number | null } {
  const records: CsvRecord[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  while (i < body.length) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      endRecord();
      if (c === '\r' && body[i + 1] === '\n') i++;
      line++;
      recordLine = line;
    } else field += c;
    i++;
  }
  if (quoted) return { records, unclosedQuoteLine: quoteLine };
  if (field !== '' || fields.length > 0) endRecord();
  return { records, unclosedQuoteLine: null };
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP's list: =, +, -, @, tab, carriage return). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell for a spreadsheet: a text starting like a formula gets a leading apostrophe, which
 * Excel, LibreOffice and Google Sheets show as text and never evaluate; then quoted when needed.
 * Numbers are the caller's own values and pass as they are (a negative amount stays a number).
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: the header, then one line per row, CRLF as RFC 4180 ends lines. */
export function toCsv(
  header: readonly string[],
  rows: Iterable<readonly (string | number | boolean | null)[]>,
): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
