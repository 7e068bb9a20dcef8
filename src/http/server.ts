import { randomUUID } from 'node:crypto';
import ajvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { KeywordDefinition } from 'ajv';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { allErrorsFactory } from './all-errors.js';
import { clientErrorHandler } from './client-errors.js';
import { DEFAULT_HEADERS, documentInputErrors, errorHandler, routingErrorHandler } from './errors.js';
import { invalid } from '../domain/errors.js';
import { GUARD_ERRORS } from './guards.errors.js';
import { installJsonBodyParser } from './json-body.js';
import { lazySerializerFactory, lazyValidatorFactory, SchemaWarmer } from './lazy-schemas.js';
import { installIgnoredFieldsHeader, lenientValidatorFactory } from './lenient-input.js';
import { withPrivateErrors } from './log-privacy.js';
import { lazyChildLogger, requestLineWriter } from './request-log.js';
import { wellFormedTextFactory } from './text-input.js';
import { createRouteMethods, notFoundHandler } from './route-methods.js';
import { prefixItems } from './tuple.js';
import { STATED_RULE } from './stated-rules.js';
import { UUID } from '../base/uuid.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// One of each for every app the process builds: what they compile is kept per compiler and shared
// by the apps (lazy-schemas.ts).
const VALIDATOR_COMPILER = ajvCompiler();
const SERIALIZER_COMPILER = SerializerSelector();
export const AJV_OPTIONS: {
  coerceTypes: false;
  removeAdditional: false;
  verbose: true;
  keywords: (string | KeywordDefinition)[];
} = {
  // Strict input: "12" is not a number and unknown fields are errors, not silently dropped. The
  // Velocity routes reshape a body that fails this once, and check it again (http/lenient-input.ts).
  coerceTypes: false,
  removeAdditional: false,
  // Gives the error formatter each failing schema, for the messages kept in `x-error`.
  verbose: true,
  // prefixItems: tuples are written as OpenAPI 3.1 has them (http/tuple.ts). A stated rule is the
  // service's to check (http/stated-rules.ts): an annotation here.
  keywords: ['x-error', 'x-required-error', STATED_RULE, prefixItems],
};

/** Fastify's own types leave out the hop count its proxy-addr takes; a hop test says the same. */
function trustedProxies(
  trust: false | number | readonly string[],
): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? trust.join(',') : trust;
}

/**
 * The Fastify instance every route is served by: request ids, one log line per request, the error
 * envelope, strict input validation (lenient on the Velocity routes) and a 400 for a missing body.
 */
export function createHttpServer(
  logger: FastifyServerOptions['logger'],
  trustProxy: false | number | readonly string[] = false,
) {
  const schemaWarmer = new SchemaWarmer();
  const app = Fastify({
    logger: withPrivateErrors(logger),
    // A caller's own request id is kept (so logs join up across services) when it is safe to log.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    // request.ip, which the per-address limits count by, is the socket's address unless the
    // operator names the proxies in front (TRUST_PROXY, decision 99): a header anyone can send is not trusted.
    trustProxy: trustedProxies(trustProxy),
    // One line per request (below), not Fastify's two ("incoming request", "request completed"),
    // with its URL's capabilities (tracking tokens, label signatures) redacted.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    frameworkErrors: routingErrorHandler,
    clientErrorHandler,
    // After ajv-formats (onCreate runs last): its uuid passes forms the database refuses.
    ajv: { customOptions: AJV_OPTIONS, onCreate: (ajv) => ajv.addFormat('uuid', UUID) },
    schemaController: {
      compilersFactory: {
        buildValidator: wellFormedTextFactory(
          lenientValidatorFactory(allErrorsFactory(lazyValidatorFactory(VALIDATOR_COMPILER, schemaWarmer))),
        ),
        buildSerializer: lazySerializerFactory(SERIALIZER_COMPILER, schemaWarmer),
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('schemaWarmer', schemaWarmer);
  // Fields the kit's hooks set on a request (auth.ts, idempotency.ts), declared up front so that
  // every request object is built with one shape instead of growing a property mid-flight.
  app.decorateRequest('accountId', '');
  app.decorateRequest('scopes', null);
  app.decorateRequest('memberId', null);
  app.decorateRequest('principal', null);
  app.decorateRequest('transaction', undefined);

  app.setErrorHandler(errorHandler);
  installIgnoredFieldsHeader(app);
  const routeMethods = createRouteMethods();
  app.addHook('onRoute', (route) => {
    routeMethods.add(route);
    documentInputErrors(route);
  });
  const notFound = notFoundHandler(routeMethods);
  app.setNotFoundHandler(notFound);
  // Callback-style hooks: an async hook costs every request a promise for trivial work.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(DEFAULT_HEADERS);
    reply.header('x-request-id', request.id);
    // A method no route takes is answered now: Fastify would otherwise parse (or, without a
    // Content-Type, refuse) the body a QUERY or the like may carry before the 404/405 below.
    if (request.is404) return void notFound(request, reply);
    done();
  });
  const logRequest = logger ? requestLineWriter(app.log) : undefined;
  if (logRequest) {
    app.addHook('onResponse', (request, reply, done) => {
      logRequest(request, reply);
      done();
    });
  }
  // Only JSON (and multipart where a route takes a file) is spoken; text/plain would reach
  // handlers unvalidated.
  app.removeContentTypeParser('text/plain');
  installJsonBodyParser(app);

  // (A multipart body is attached later, by the multipart plugin's own hook in the stores scope.)
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined) return done();
    const multipartBody = request.headers['content-type']?.startsWith('multipart/form-data') ?? false;
    if (request.routeOptions.schema?.body && !multipartBody) {
      if (!request.routeOptions.config.optionalBody)
        return done(invalid('A request body is required: send a JSON object', undefined, GUARD_ERRORS.body_required));
      request.body = {};
    }
    done();
  });
  return app;
}
