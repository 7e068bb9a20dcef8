/**
 * A file its parser refuses whole (no known header, too many lines): the message says why, for the
 * answer. Apart from the pool so that a parser module, which the thread loads, needs nothing else.
 */
export class FileRefused extends Error {
  override name = 'FileRefused';
}
