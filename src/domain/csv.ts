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

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Reads CSV as it arrives, chunk by chunk, handing each record to `onRecord` as soon as it ends:
 * an upload is parsed while it streams in, and only the record being read is held. Blank lines are
 * skipped; a quoted field may span lines (and chunks), so a record's line is where it starts.
 */
export class CsvReader {
  private fields: string[] = [];
  private field = '';
  private line = 1;
  private recordLine = 1;
  private quoted = false;
  private quoteLine = 0;
  /** A quote inside a quoted field ended the last chunk: the next character says whether it was doubled. */
  private pendingQuote = false;
  /** A CR ended the last chunk and its record: a LF starting the next belongs to it. */
  private skipLineFeed = false;
  private started = false;

  constructor(private readonly onRecord: (record: CsvRecord) => void) {}

  push(chunk: string): void {
    if (chunk.length === 0) return;
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const n = text.length;
    let i = 0;
    if (this.pendingQuote) {
      this.pendingQuote = false;
      if (text.charCodeAt(0) === QUOTE) {
        this.field += '"';
        i = 1;
      } else this.quoted = false;
    }
    if (this.skipLineFeed) {
      this.skipLineFeed = false;
      if (i < n && text.charCodeAt(i) === LF) i++;
    }
    while (i < n) {
      if (this.quoted) {
        const quote = text.indexOf('"', i);
        const end = quote === -1 ? n : quote;
        for (let j = i; j < end; j++) if (text.charCodeAt(j) === LF) this.line++;
        this.field += text.slice(i, end);
        if (quote === -1 || quote + 1 === n) {
          this.pendingQuote = quote !== -1;
          return;
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          this.field += '"';
          i = quote + 2;
        } else {
          this.quoted = false;
          i = quote + 1;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE && this.field === '') {
        this.quoted = true;
        this.quoteLine = this.line;
        i++;
      } else if (c === COMMA) {
        this.fields.push(this.field);
        this.field = '';
        i++;
      } else if (c === LF || c === CR) {
        this.endRecord();
        this.line++;
        this.recordLine = this.line;
        i++;
        if (c === CR) {
          if (i === n) this.skipLineFeed = true;
          else if (text.charCodeAt(i) === LF) i++;
        }
      } else {
        // A run of plain characters (a quote inside a field is one of them), taken at once.
        let j = i + 1;
        for (; j < n; j++) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === LF || d === CR) break;
        }
        this.field += text.slice(i, j);
        i = j;
      }
    }
  }

  /** The last record, if the text did not end with a line break; a quote left open is reported by its opening line. */
  end(): { unclosedQuoteLine: number | null } {
    if (this.pendingQuote) {
      this.pendingQuote = false;
      this.quoted = false;
    }
    if (this.quoted) return { unclosedQuoteLine: this.quoteLine };
    if (this.field !== '' || this.fields.length > 0) this.endRecord();
    return { unclosedQuoteLine: null };
  }

  private endRecord() {
    this.fields.push(this.field);
    if (this.fields.length > 1 || this.fields[0] !== '') this.onRecord({ line: this.recordLine, fields: this.fields });
    this.fields = [];
    this.field = '';
  }
}

/**
 * Every record of `text`, blank lines skipped. A quoted field may span lines, so a record's line is
 * where it starts. A quote left open at the end of the file is reported by its opening line.
 */
export function parseCsv(text: string): { records: CsvRecord[]; unclosedQuoteLine: number | null } {
  const records: CsvRecord[] = [];
  const reader = new CsvReader((record) => records.push(record));
  reader.push(text);
  const { unclosedQuoteLine } = reader.end();
  return { records, unclosedQuoteLine };
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
