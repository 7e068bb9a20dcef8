/**
 * What an import answers about a file's bad lines (issue 46): a file may hold tens of thousands of
 * them, each quoting what it read, so the answer lists the first ones by line and counts the rest,
 * and quotes no value of the file longer than a line of text.
 */

/** The most problems an import's answer lists, first by line; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 100;
/** The longest a value read from a file is quoted back, the ellipsis that marks a cut included. */
export const MAX_ECHOED_CHARACTERS = 200;

/** `text` as an answer may quote it: at most MAX_ECHOED_CHARACTERS, a cut marked with "…", never half a character. */
export function echo(text: string): string {
  if (text.length <= MAX_ECHOED_CHARACTERS) return text;
  let end = MAX_ECHOED_CHARACTERS - 1;
  // A surrogate pair is one character: cut before it rather than through it.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * The first MAX_LISTED_PROBLEMS problems by line, and how many there were in all. Problems may
 * arrive out of line order (the database finds some after the parser found others): every one is
 * counted, and only the first ones by line are kept.
 */
export class ProblemList<P extends { line: number }> {
  private kept: P[] = [];
  private total = 0;

  add(problem: P): void {
    this.total++;
    this.kept.push(problem);
    // Trimmed now and then rather than on every add: sorted once per MAX_LISTED_PROBLEMS problems.
    if (this.kept.length >= 2 * MAX_LISTED_PROBLEMS) this.trim();
  }

  addAll(problems: Iterable<P>, count?: number): void {
    let added = 0;
    for (const problem of problems) {
      this.add(problem);
      added++;
    }
    // A list already cut elsewhere (a parser thread's) brings the count of those it left out.
    if (count !== undefined) this.total += count - added;
  }

  get count(): number {
    return this.total;
  }

  /** The problems to list, in line order (those of one line in the order they were found). */
  listed(): P[] {
    this.trim();
    return [...this.kept];
  }

  private trim() {
    this.kept.sort((a, b) => a.line - b.line);
    if (this.kept.length > MAX_LISTED_PROBLEMS) this.kept.length = MAX_LISTED_PROBLEMS;
  }
}
