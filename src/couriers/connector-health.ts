import { sql } from 'drizzle-orm';
import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { courierHealth } from '../base/db/schema.js';

/**
 * What a connector tells of its calls to its courier. Each report only updates memory: a
 * booking never waits on it. The recorder writes them to `courier_health` a moment later.
 */
export interface HealthReport {
  /** The courier answered (a refusal in its own words is an answer). */
  success(): void;
  /** The call failed: time-out, connection, 5xx, nonsense, 429, or a 4xx such as refused credentials. */
  failure(message: string): void;
  /** When the access token the connector holds runs out; for couriers that trade credentials for a token. */
  tokenExpiry(expiresAt: Date): void;
}

interface Pending {
  lastSuccessAt?: Date;
  lastErrorAt?: Date;
  lastError?: string;
  tokenExpiresAt?: Date;
}

export interface ConnectorHealthRow {
  connector: string;
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
  tokenExpiresAt: Date | null;
}

interface Logger {
  warn(object: object, message: string): void;
}

/** How long reports gather in memory before one statement writes them all. */
const FLUSH_DELAY_MS = 1000;
/** A failure's message as kept: enough to read, bounded whatever a courier sends. */
const MESSAGE_LIMIT = 300;

/**
 * Gathers connectors' reports per connector and writes them in one upsert per second at most, so
 * a process that books hundreds of parcels a second writes one row per connector per second.
 * Several processes merge: the latest success, the latest error with its message.
 */
export function createHealthRecorder({ db, clock, log }: { db: Db; clock: Clock; log?: Logger }) {
  const pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, FLUSH_DELAY_MS);
    timer.unref();
  };
  const update = (connector: string, change: Pending) => {
    pending.set(connector, { ...pending.get(connector), ...change });
    schedule();
  };

  async function write(rows: [string, Pending][]) {
    const now = clock.now();
    await db
      .insert(courierHealth)
      .values(
        rows.map(([connector, p]) => ({
          connector,
          lastSuccessAt: p.lastSuccessAt ?? null,
          lastErrorAt: p.lastErrorAt ?? null,
          lastError: p.lastError ?? null,
          tokenExpiresAt: p.tokenExpiresAt ?? null,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: courierHealth.connector,
        set: {
          // greatest() skips nulls: a process with no new success keeps the row's.
          lastSuccessAt: sql`greatest(${courierHealth.lastSuccessAt}, excluded.last_success_at)`,
          lastError: sql`case when excluded.last_error_at is not null and (${courierHealth.lastErrorAt} is null or excluded.last_error_at >= ${courierHealth.lastErrorAt})
            then excluded.last_error else ${courierHealth.lastError} end`,
          lastErrorAt: sql`greatest(${courierHealth.lastErrorAt}, excluded.last_error_at)`,
          tokenExpiresAt: sql`coalesce(excluded.token_expires_at, ${courierHealth.tokenExpiresAt})`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }

  /** Writes what is pending; a write that fails is logged and its reports dropped (the next call reports again). */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    const rows = [...pending];
    pending.clear();
    writing = writing.then(async () => {
      if (rows.length === 0) return;
      try {
        await write(rows);
      } catch (error) {
        log?.warn({ err: error }, 'courier health not recorded');
      }
    });
    return writing;
  }

  return {
    reporter(connector: string): HealthReport {
      return {
        success: () => update(connector, { lastSuccessAt: clock.now() }),
        failure: (message) =>
          update(connector, { lastErrorAt: clock.now(), lastError: message.slice(0, MESSAGE_LIMIT) }),
        tokenExpiry: (expiresAt) => update(connector, { tokenExpiresAt: expiresAt }),
      };
    },
    flush,
    /** Every connector's record, as this process and the others wrote it (this one's pending reports first written). */
    async read(): Promise<Map<string, ConnectorHealthRow>> {
      await flush();
      const rows = await db.select().from(courierHealth);
      return new Map(rows.map((row) => [row.connector, row]));
    },
  };
}

export type HealthRecorder = ReturnType<typeof createHealthRecorder>;
