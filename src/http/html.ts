// Markup written on the server (the tracking page, customer e-mails): every value interpolated
// into it is escaped, so a brand name or city holding `<` or `"` is text, never markup.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Markup that is already safe: interpolated as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
type Part = string | number | Html | null | undefined | false | Part[];
const render = (part: Part): string =>
  Array.isArray(part)
    ? part.map(render).join('')
    : part instanceof Html
      ? part.value
      : part === null || part === undefined || part === false
        ? ''
        : escapeHtml(String(part));

/** Template tag: every interpolated value is escaped unless it is already markup (a Html). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));
}
