import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { GUARD_ERRORS } from './guards.errors.js';

// What a module's registrar (`registerX(host, ctx)`) is handed besides its dependencies: where its
// routes go, whether its timers run, and the process's start and stop. The API process hands one
// over its Fastify app (buildApp); the delivery worker one with no routes (delivery-worker.ts).

/**
 * The route scopes, in the order they are served, each with its prefix. A scope's guards (the
 * credential checks, limits and idempotency the composition and the modules put in front of it)
 * run before any of its routes.
 */
export const ROUTE_SCOPES = {
  /** The landing page, health checks and the panel's files: no credential. */
  site: '',
  /** Logos, labels and fonts by signed or public link. */
  public: '/public/v1',
  /** The customers' pages (tracking, stores, forms, buyers' replies), limited per client address. */
  pages: '',
  /** Logging in: a credential is what it hands out. */
  login: '/custom/api/v1',
  /** The panel's session. */
  panel: '/panel/v1',
  /** An account's API, behind its credential. */
  account: '/custom/api/v1',
  /** What couriers push, each route checking its own credential. */
  carrier: '/carrier/v1',
  /** What couriers fetch, behind the carrier-token check. */
  carrierActions: '/carrier/v1',
  /** The operator API, behind ADMIN_TOKEN (or closed). */
  admin: '/admin/v1',
} as const;

export type RouteScope = keyof typeof ROUTE_SCOPES;

/** A Fastify plugin of routes (any type provider), or a function that adds routes to the instance it is given. */
export type RoutePlugin = (instance: never, options: never) => unknown;
/** What a guard is: hooks added to the scope's own instance, so they run before every route in it. */
export type Guard = (scope: FastifyInstance) => unknown;
type Plugin = (instance: FastifyInstance, options: Record<string, never>) => Promise<void> | void;

/**
 * The process's routes, gathered by scope from every registrar and served at once by mount():
 * modules add to shared scopes (every module's account routes sit behind one credential check)
 * without knowing each other or the order they are registered in.
 */
export class RouteTable {
  private readonly plugins = new Map<RouteScope, RoutePlugin[]>();
  private readonly guards = new Map<RouteScope, Guard[]>();
  private readonly closed = new Map<RouteScope, string>();

  add(scope: RouteScope, ...plugins: RoutePlugin[]): void {
    this.plugins.set(scope, [...(this.plugins.get(scope) ?? []), ...plugins]);
  }

  /** Puts `guard` (hooks) in front of every route of `scope`, after the guards added before it. */
  guard(scope: RouteScope, guard: Guard): void {
    this.guards.set(scope, [...(this.guards.get(scope) ?? []), guard]);
  }

  /** Serves none of `scope`'s routes: every path under it answers 404 with `reason`. */
  close(scope: RouteScope, reason: string): void {
    this.closed.set(scope, reason);
  }

  /** Registers every scope on `app`, in ROUTE_SCOPES' order. */
  async mount(app: FastifyInstance): Promise<void> {
    for (const [scope, prefix] of Object.entries(ROUTE_SCOPES) as [RouteScope, string][]) {
      const reason = this.closed.get(scope);
      if (reason !== undefined) {
        app.all(`${prefix}/*`, { schema: { hide: true } }, async () => {
          throw GUARD_ERRORS.api_not_served.error(reason);
        });
        continue;
      }
      const plugins = this.plugins.get(scope) ?? [];
      if (plugins.length === 0) continue;
      const guards = this.guards.get(scope) ?? [];
      await app.register(
        async (instance) => {
          for (const guard of guards) await guard(instance);
          for (const plugin of plugins) await instance.register(async (routes) => (plugin as Plugin)(routes, {}));
        },
        { prefix },
      );
    }
  }
}

/** A process's background work: started once the process is ready, stopped (and awaited) as it closes. */
export interface Background {
  start(): void;
  stop(): Promise<void> | void;
}

export interface Host {
  readonly log: FastifyBaseLogger;
  /** Where routes go; undefined in a process that serves no HTTP (the delivery worker). */
  readonly routes: RouteTable | undefined;
  /**
   * Whether periodic work (the tracking poller, sweeps, hourly checks, the NDR rules) runs on its
   * timers in this process: one process of a cluster runs it; tests run rounds by hand.
   */
  readonly timers: boolean;
  /** Runs `hook` once the process is ready, before it serves. */
  onReady(hook: () => Promise<void> | void): void;
  /** Runs `hook` once the process serves (listens; a process without HTTP: once started). */
  onListen(hook: () => Promise<void> | void): void;
  /** Runs `hook` as the process closes; the last added runs first (a module stops before what it was handed). */
  onClose(hook: () => Promise<void> | void): void;
  /** Starts `work` when ready if timers run here; stops it on close either way. */
  runPeriodically(work: Background): void;
  /** Makes `value` a property of the app (declared on FastifyInstance by its module): tests run its rounds. */
  expose<K extends keyof FastifyInstance>(name: K, value: FastifyInstance[K]): void;
}

/** The host of the API process: its Fastify app's hooks, and the routes buildApp mounts. */
export function appHost(app: FastifyInstance, routes: RouteTable, timers: boolean): Host {
  const host: Host = {
    log: app.log,
    routes,
    timers,
    onReady: (hook) => app.addHook('onReady', async () => hook()),
    onListen: (hook) => app.addHook('onListen', async () => hook()),
    onClose: (hook) => app.addHook('onClose', async () => hook()),
    runPeriodically(work) {
      if (timers) host.onReady(() => work.start());
      host.onClose(() => work.stop());
    },
    expose: (name, value) => void app.decorate(name, value as never),
  };
  return host;
}

/**
 * The host of a process that serves no HTTP (the delivery worker): no routes, no timers, and the
 * same order of hooks as the app's: ready hooks in the order added, close hooks the last first.
 */
export function backgroundHost(log: FastifyBaseLogger): Host & { start(): Promise<void>; close(): Promise<void> } {
  const ready: (() => Promise<void> | void)[] = [];
  const listening: (() => Promise<void> | void)[] = [];
  const closing: (() => Promise<void> | void)[] = [];
  return {
    log,
    routes: undefined,
    timers: false,
    onReady: (hook) => void ready.push(hook),
    onListen: (hook) => void listening.push(hook),
    onClose: (hook) => void closing.unshift(hook),
    runPeriodically: (work) => void closing.unshift(() => work.stop()),
    expose: () => {},
    async start() {
      for (const hook of ready) await hook();
      for (const hook of listening) await hook();
    },
    async close() {
      for (const hook of closing) await hook();
    },
  };
}
