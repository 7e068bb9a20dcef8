/**
 * Settings that cannot work: start-up stops with every one of them named. One problem is the
 * message itself; several are listed one a line under a count.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(
      list.length === 1 ? list[0] : `${list.length} settings are wrong:\n${list.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = Object.freeze([...list]);
  }
}
