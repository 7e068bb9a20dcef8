import { ConfigError } from './config-error.js';

// Settings are owned by the modules that use them: each declares its own in a fragment beside it
// (`<module>.settings.ts`: name, environment variable, type, default, range, description), and the
// composition assembles the fragments it lists (src/settings.ts), reads the environment once,
// names every bad value at once, and hands the result down. The README's and docs/operations.md's
// configuration tables are generated from the same declarations (npm run docs:settings).

export { ConfigError };

export type Env = Readonly<Record<string, string | undefined>>;

/** One setting: where its value comes from, what it means, and how a value set is read. */
export interface Setting<T> {
  /** The environment variable that sets it; none for a value only code changes (tests, the demo). */
  readonly env?: string;
  /** What it does, for the configuration tables (Markdown, one line). */
  readonly doc: string;
  /** How a value is written, for the tables. */
  readonly type: string;
  readonly default: T;
  /** The default as the tables show it, where the value would not say it (derived, or none). */
  readonly shownDefault?: string;
  /** The values accepted, for the tables ("1 to 365"). */
  readonly range?: string;
  /** Reads a value the environment sets (trimmed, never blank); throws a ConfigError naming the variable. */
  readonly parse?: (raw: string) => T;
}

export type Specs = Readonly<Record<string, Setting<unknown>>>;

/** The values a fragment's settings read to, before its `finish`. */
export type ValuesOf<S extends Specs> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** What a fragment's `finish` can say: a problem stops start-up (with every other), a warning is logged. */
export interface Report<S extends Specs> {
  problem(message: string): void;
  warn(message: string): void;
  /** Whether the environment set this setting (a derived default applies otherwise). */
  given(key: keyof S & string): boolean;
}

export interface SettingsFragment<S extends Specs, V> {
  readonly settings: S;
  /** Checks that need several of the fragment's values, and the shape its module takes them in. */
  readonly finish: (values: ValuesOf<S>, report: Report<S>) => V;
}

/** Any fragment, whatever it declares. */
export type AnyFragment = { readonly settings: Specs; readonly finish: (values: never, report: never) => unknown };

export type SettingsOf<F> = F extends { finish: (values: never, report: never) => infer V } ? V : never;

/** A module's settings: the values as declared, or the shape `finish` makes of them. */
export function defineSettings<S extends Specs>(settings: S): SettingsFragment<S, Readonly<ValuesOf<S>>>;
export function defineSettings<S extends Specs, V>(
  settings: S,
  finish: (values: ValuesOf<S>, report: Report<S>) => V,
): SettingsFragment<S, V>;
export function defineSettings<S extends Specs, V>(
  settings: S,
  finish?: (values: ValuesOf<S>, report: Report<S>) => V,
): SettingsFragment<S, V | ValuesOf<S>> {
  return { settings, finish: finish ?? ((values) => values) };
}

export type Assembled<F extends Readonly<Record<string, AnyFragment>>> = {
  readonly [K in keyof F]: SettingsOf<F[K]>;
};

/** What an assembly reports besides the settings: things that work but are probably not meant. */
export interface AssembledSettings<T> {
  readonly settings: T;
  readonly warnings: readonly string[];
}

/**
 * Reads every fragment's settings from `env`, then the checks across modules (`across`). Every
 * problem found, in every fragment, is collected, and start-up stops with one ConfigError naming
 * them all; values are frozen.
 */
export function assembleSettings<F extends Readonly<Record<string, AnyFragment>>>(
  fragments: F,
  env: Env,
  across?: (settings: Assembled<F>, report: Omit<Report<Specs>, 'given'>) => void,
): AssembledSettings<Assembled<F>> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const assembled: Record<string, unknown> = {};
  for (const [name, fragment] of Object.entries(fragments)) {
    assembled[name] = deepFreeze(readFragment(fragment as SettingsFragment<Specs, unknown>, env, problems, warnings));
  }
  const settings = Object.freeze(assembled) as Assembled<F>;
  across?.(settings, { problem: (message) => problems.push(message), warn: (message) => warnings.push(message) });
  if (problems.length > 0) throw new ConfigError(problems);
  return { settings, warnings: Object.freeze(warnings) };
}

function readFragment<S extends Specs, V>(
  fragment: SettingsFragment<S, V>,
  env: Env,
  problems: string[],
  warnings: string[],
): V {
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const [key, spec] of Object.entries(fragment.settings)) {
    const raw = spec.env === undefined ? undefined : env[spec.env]?.trim() || undefined;
    values[key] = spec.default;
    if (raw === undefined || spec.parse === undefined) continue;
    given.add(key);
    try {
      values[key] = spec.parse(raw);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  return fragment.finish(values as ValuesOf<S>, {
    problem: (message) => problems.push(message),
    warn: (message) => warnings.push(message),
    given: (key) => given.has(key),
  });
}

/** Overrides of some of each module's settings: what a test or the demo changes. */
export type SettingsOverrides<T> = { readonly [K in keyof T]?: Partial<T[K]> };

/** `settings` with `overrides` laid over each module's values (a module's nested values are replaced whole). */
export function withOverrides<T extends object>(settings: T, overrides: SettingsOverrides<T> = {}): T {
  const merged = { ...settings } as Record<string, unknown>;
  for (const [name, values] of Object.entries(overrides)) {
    if (values !== undefined) merged[name] = deepFreeze({ ...(merged[name] as object), ...(values as object) });
  }
  return Object.freeze(merged) as unknown as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
