/** The longest excerpt of a remote's own words kept in a record an account reads (last_error). */
export const REMOTE_EXCERPT_CHARS = 120;

/**
 * Control characters (C0, DEL, C1), bidirectional controls (U+061C, U+200E/F, U+202A–U+202E,
 * U+2066–U+2069), zero-width characters (U+200B–U+200D, U+2060, U+FEFF) and lone surrogates: what
 * could forge a log line, reorder what a reader sees, or hide text.
 */
const HIDDEN = /\p{Cc}|[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]|\p{Cs}/gu;

/**
 * A short excerpt of a remote's message for a record an account reads: hidden characters dropped,
 * runs of spaces folded, at most `max` characters (an ellipsis says more was cut). Only a field the
 * provider documents as its error's message is ever excerpted, never a whole answer: a target that
 * should not have been reached must not hand its page back through our records.
 */
export function remoteExcerpt(text: string, max = REMOTE_EXCERPT_CHARS): string {
  const clean = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}
