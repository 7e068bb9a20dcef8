// CSV in and out (RFC 4180), shared by every report export and file import. Pure.

/**
 * Characters that make a spreadsheet read a cell as a formula (or, for tab and carriage return,
 * that some spreadsheets strip before doing so): a cell a merchant's customer or a courier wrote
 * could otherwise run `=HYPERLINK(...)` or worse when the export is opened (OWASP's CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: a string starting like a formula gets a leading apostrophe, which spreadsheets show as
 * text and do not display; then quoting where a comma, quote or line break needs it. Numbers the
 * export computes itself (amounts, weights) are written as they are, so they stay numbers.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A whole file: the header, then one CRLF-ended line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

export interface CsvRecord {
  /** The line of the file the record starts on, counting the header as line 1. */
  line: number;
  cells: string[];
}

export type ParsedCsv = { header: string[]; records: CsvRecord[] } | { problem: string };

/**
 * Reads a file as RFC 4180 (quoted cells may hold commas, quotes and line breaks; CRLF or LF; a
 * byte-order mark is dropped). Blank lines are skipped. A quote left open is the one thing that
 * spoils the whole file, since every record after it would be misread.
 */
export function parseCsv(text: string): ParsedCsv {
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const rows: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let touched = false;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    if (touched || cells.length > 1 || cells[0] !== '') rows.push({ line: start, cells });
    cells = [];
    touched = false;
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as string;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') {
      quoted = true;
      touched = true;
    } else if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      endRow();
      line++;
      start = line;
    } else cell += c;
  }
  if (quoted) return { problem: `a quoted cell opened on line ${start} is never closed` };
  endRow();
  const [first, ...records] = rows;
  if (!first) return { problem: 'the file is empty: it needs a header line' };
  return { header: first.cells.map((name) => name.trim()), records };
}
