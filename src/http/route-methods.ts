import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { sendHttpError } from './errors.js';
import { HTTP_ERRORS } from './http.errors.js';

/** Each route's methods by URL pattern, so that a known path asked with another method gets a 405. */
export function createRouteMethods() {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  return {
    add(route: RouteOptions) {
      const source = route.url
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/');
      const methods = [route.method].flat();
      const known = routes.find((r) => r.pattern.source === `^${source}$`);
      if (known) known.methods.push(...methods.filter((m) => !known.methods.includes(m)));
      else routes.push({ pattern: new RegExp(`^${source}$`), methods });
    },
    allowed(path: string): string[] {
      return routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
    },
  };
}
export type RouteMethods = ReturnType<typeof createRouteMethods>;

/** Past this many characters a path is named by its start and length: a 16 KiB URL echoed twice made a 32 KiB 404. */
const SHOWN_PATH_CHARS = 200;
const shownPath = (path: string) =>
  path.length > SHOWN_PATH_CHARS ? `${path.slice(0, SHOWN_PATH_CHARS)}... (${path.length} characters)` : path;

export function notFoundHandler(routes: RouteMethods) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routes.allowed(path);
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(', ');
      reply.header('allow', allow);
      const message = `Method ${request.method} is not allowed on ${shownPath(path)}: use ${allow}`;
      return sendHttpError(reply, HTTP_ERRORS.method_not_allowed, message);
    }
    return sendHttpError(reply, HTTP_ERRORS.route_not_found, `Route ${request.method} ${shownPath(path)} not found`);
  };
}
