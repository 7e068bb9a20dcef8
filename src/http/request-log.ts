import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type Logger } from 'pino';
import { urlForLog } from './log-privacy.js';

type LogMethod = keyof Pick<FastifyBaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'>;

/**
 * A request's logger, made only when something logs through it. Fastify gives every request a
 * pino child (its request id bound); making one serialises the bindings and copies the logger,
 * about a microsecond each time, and most requests log nothing but their request line, which
 * requestLine writes without one.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }

  fatal(...args: unknown[]) {
    this.#call('fatal', args);
  }
  error(...args: unknown[]) {
    this.#call('error', args);
  }
  warn(...args: unknown[]) {
    this.#call('warn', args);
  }
  info(...args: unknown[]) {
    this.#call('info', args);
  }
  debug(...args: unknown[]) {
    this.#call('debug', args);
  }
  trace(...args: unknown[]) {
    this.#call('trace', args);
  }
  silent(...args: unknown[]) {
    this.#call('silent', args);
  }

  #call(method: LogMethod, args: unknown[]) {
    (this.#logger[method] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's childLoggerFactory: the request's logger, made on first use. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

/**
 * Writes the one line logged per request, the line `request.log.info({...}, 'request')` writes,
 * field for field: level, time, the logger's bindings (pid, hostname), the request id, method, URL
 * (capabilities redacted), status, milliseconds, account, msg; none for a route whose logLevel is above
 * info (the health probes). Formed here as one template, not
 * through pino's generic object path (serializer lookups, a stringify per value): that path was a
 * fifth of what a cached /rates answer cost on top of Fastify. Only the URL can hold characters
 * JSON must escape: the request id is checked against a safe pattern or is a UUID (server.ts),
 * the method is one Node's parser knows, the account is a UUID.
 */
export function requestLineWriter(
  logger: FastifyBaseLogger,
): ((request: FastifyRequest, reply: FastifyReply) => void) | undefined {
  const root = logger as unknown as Logger;
  if (!root.isLevelEnabled('info')) return undefined;
  const stream = (root as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym]!;
  const bindings = (root as unknown as Record<symbol, string>)[pino.symbols.chindingsSym]!;
  const levels = root.levels.values;
  const info = levels.info!;
  const head = `{"level":${info}`;
  const bound = `${bindings},"reqId":"`;
  // The URL as logged, for the URL last seen: a checkout asks the same path again and again, and
  // redacting and quoting it is the same work each time.
  let lastUrl = '';
  let lastLoggedUrl = '""';
  return (request, reply) => {
    // A route that logs only from a higher level (the health probes, asked every few seconds)
    // gets no request line either. Its level is its logger's (Fastify makes each request's logger
    // at the route's level), read without making the logger (lazyChildLogger); request.routeOptions
    // would build an object of every route option for this one.
    if ((levels[request.log.level] ?? info) > info) return;
    const url = request.url;
    if (url !== lastUrl) {
      lastLoggedUrl = JSON.stringify(urlForLog(url));
      lastUrl = url;
    }
    const account = request.accountId ? `,"account":"${request.accountId}"` : '';
    stream.write(
      `${head},"time":${Date.now()}${bound}${request.id}","method":"${request.method}","url":${lastLoggedUrl},` +
        `"statusCode":${reply.statusCode},"ms":${Math.round(reply.elapsedTime * 10) / 10}${account},"msg":"request"}\n`,
    );
  };
}
