import type { FastifyInstance } from 'fastify';
import { invalid } from '../domain/errors.js';
import { GUARD_ERRORS } from './guards.errors.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have. No route's input is deeper than
 * about 4; the bound keeps every walk of a body (the parser's, the validators', the text check's)
 * far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP = `JSON body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text nests arrays and objects deeper than `max`, read as text in one pass
 * (brackets inside strings do not count). It runs before JSON.parse, so a hostile body is refused
 * before anything builds or walks it. Malformed text may be miscounted here; JSON.parse refuses it next.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: the next one not escaped by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end === -1) return false;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's own JSON parser (secure-json-parse: prototype poisoning refused), behind the depth
 * bound. A body past MAX_JSON_DEPTH is a 400 in the error envelope on every route. An empty body is
 * no body, whatever its Content-Type says: clients send `Content-Type: application/json` on every
 * request, DELETE included; a route that needs a body then says so (server.ts).
 */
export function installJsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH))
      return done(invalid(TOO_DEEP, 'body', GUARD_ERRORS.json_too_deep), undefined);
    parse(request, text, done);
  });
}
