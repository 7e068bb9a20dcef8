import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A wake-up every process on one PostgreSQL database hears: "events were recorded, look". */
export interface Signal {
  /** Tells the other processes; calls made while one is being sent are folded into the next. */
  send(): void;
  /** Called when another process sent it. */
  onSignal(listener: () => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'dakiya_events';
const RECONNECT_MS = 1000;
/**
 * At most one NOTIFY this often: under a sale every booking asks, and each NOTIFY is a statement
 * for this process and a message for every listener, while the workers it wakes take what came
 * meanwhile in one round anyway.
 */
const SEND_SPACING_MS = 20;

/**
 * PostgreSQL's LISTEN/NOTIFY on a connection of its own. The NOTIFY is sent after the fact, by its
 * own statement, never inside the transaction that records the events: a transaction that notifies
 * holds a database-wide lock from its commit until its WAL is flushed, so bookings that each
 * notified would commit one fsync at a time again (see migration 0023). Sends are folded: at most
 * one is in flight, at most one per SEND_SPACING_MS, and whatever asks meanwhile is carried by the next. A process ignores its own.
 * Lost connections are opened again a second later; until then the workers' polls carry on.
 */
export function postgresSignal(connectionString: string, onError: (error: Error) => void = () => {}): Signal {
  const me = randomUUID();
  const listeners: (() => void)[] = [];
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client | undefined> | undefined;
  let closed = false;
  let sending = false;
  let again = false;

  function connect(): Promise<pg.Client | undefined> {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString });
      next.on('notification', (message) => {
        if (message.payload === me) return;
        for (const listener of listeners) listener();
      });
      next.on('error', (error) => {
        onError(error);
        if (client === next) client = undefined;
        next.end().catch(() => {});
        if (!closed) setTimeout(() => void connect(), RECONNECT_MS).unref();
      });
      try {
        await next.connect();
        await next.query(`listen ${CHANNEL}`);
        if (closed) {
          await next.end();
          return undefined;
        }
        client = next;
        return next;
      } catch (error) {
        onError(error as Error);
        next.end().catch(() => {});
        if (!closed) setTimeout(() => void connect(), RECONNECT_MS).unref();
        return undefined;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }
  void connect();

  async function flush() {
    sending = true;
    try {
      do {
        again = false;
        const began = performance.now();
        const target = client ?? (await connect());
        await target?.query('select pg_notify($1, $2)', [CHANNEL, me]).catch(onError);
        const rest = SEND_SPACING_MS - (performance.now() - began);
        if (again && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest).unref());
      } while (again && !closed);
    } finally {
      sending = false;
    }
  }

  return {
    send() {
      if (closed) return;
      if (sending) again = true;
      else void flush();
    },
    onSignal(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      await connecting;
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
