const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * JSON text the database wrote, as JSON.stringify writes it: no white space outside strings.
 * row_to_json writes compactly, but a jsonb value inside it keeps jsonb's spacing
 * (`{"a": 1, "b": [1, 2]}`), and a non-empty jsonb object always holds `": `. So only text holding
 * `": ` (a jsonb object, or a string with an escaped quote before ": ") is scanned: in a listing,
 * the rows with vendor details or NDR action details.
 */
export function compactJson(text: string): string {
  if (!text.includes('": ')) return text;
  let out = '';
  let start = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: the next one not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        // Unterminated: not the database's JSON; left as it is rather than scanned again from the start.
        if (i === -1) return text;
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      out += text.slice(start, i);
      start = i + 1;
    }
  }
  return out + text.slice(start);
}
