/** A setting that cannot work: start-up stops with its message. */
export class ConfigError extends Error {}
