import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { CLUSTER_SLOT, clusterSlot } from './settings.js';

/**
 * What the primary sends a server process to stop it gracefully. Not a signal: under systemd
 * (KillMode=control-group) or a terminal's Ctrl-C every process of the group already got one, and
 * a second signal means "exit without waiting".
 */
export const STOP_MESSAGE = 'dakiya:stop';

/**
 * Whether this process runs the workers (the delivery thread, the tracking poller, the NDR rules and
 * the periodic checks): a process of its own, or the first slot of a `WEB_CONCURRENCY` cluster. The
 * other slots only serve requests, so that every recorded event does not wake a worker in each
 * process to race for the same work (decision 114).
 */
export function runsWorkersHere(): boolean {
  return !cluster.isWorker || clusterSlot() === '0';
}

/** The first restart of a process that died waits this long, each further one twice as long as the last. */
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A process that ran this long before dying counts as healthy: its next restart waits the first delay again. */
const HEALTHY_AFTER_MS = 60_000;

interface Slot {
  worker: Worker | undefined;
  serving: boolean;
  startedAt: number;
  /** Restarts since the slot's process last ran HEALTHY_AFTER_MS. */
  failures: number;
  restart: NodeJS.Timeout | undefined;
}

/**
 * `WEB_CONCURRENCY=N npm start` (N > 1): this process forks N server processes, each running
 * main.ts (its own pool; the first slot's also the workers, runsWorkersHere), and node:cluster
 * hands them the connections of the one port. A replacement for the first slot takes its workers
 * over: what they owe waits in the database meanwhile, and leases held by the dead one run out. It serves no
 * request itself: it restarts a server process that dies, with a back-off, and on SIGTERM or
 * SIGINT tells each to stop gracefully and exits once all have.
 */
export function runPrimary(processes: number, log: Logger, flush: () => void): void {
  const slots: Slot[] = Array.from({ length: processes }, () => ({
    worker: undefined,
    serving: false,
    startedAt: 0,
    failures: 0,
    restart: undefined,
  }));
  let stopping = false;
  let everServed = false;
  let exitCode = 0;

  const alive = () => slots.filter((slot) => slot.worker !== undefined);
  const finish = (code: number) => {
    flush();
    process.exit(code);
  };

  const fork = (slot: Slot, replacing?: number) => {
    const worker = cluster.fork({ [CLUSTER_SLOT]: String(slots.indexOf(slot)) });
    slot.worker = worker;
    slot.serving = false;
    slot.startedAt = Date.now();
    const pid = worker.process.pid;
    worker.once('listening', () => {
      everServed = true;
      slot.serving = true;
      if (replacing !== undefined)
        log.info({ serverPid: pid, replaced: replacing }, `server process ${pid} is serving in place of ${replacing}`);
      else if (slots.every((s) => s.serving))
        log.info(
          { processes, serverPids: slots.map((s) => s.worker?.process.pid) },
          `${processes} of ${processes} server processes are serving`,
        );
    });
    worker.once('exit', (code, signal) => {
      const served = slot.serving;
      slot.worker = undefined;
      slot.serving = false;
      if (stopping) {
        // One still starting was ended by its signal, with nothing in flight: no failure.
        if (code !== 0 && served) exitCode = 1;
        if (alive().length === 0) {
          log.info({ exitCode }, 'every server process has stopped');
          finish(exitCode);
        }
        return;
      }
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!everServed) {
        // None has ever served: a mistake in the setup (the database unreachable, a data file) that
        // a restart would only repeat. Stop as one process would.
        log.error({ serverPid: pid, code, signal }, `server process ${pid} exited (${how}) before serving: stopping`);
        exitCode = 1;
        stopAll('a server process failed to start');
        return;
      }
      if (Date.now() - slot.startedAt >= HEALTHY_AFTER_MS) slot.failures = 0;
      const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** slot.failures);
      slot.failures += 1;
      log.error(
        { serverPid: pid, code, signal, restartInMs: delay },
        `server process ${pid} exited (${how}); starting another in ${delay / 1000} s`,
      );
      slot.restart = setTimeout(() => {
        slot.restart = undefined;
        fork(slot, pid);
      }, delay);
    });
  };

  const stopAll = (reason: string) => {
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restart);
    const running = alive();
    log.info({ reason, processes: running.length }, `stopping ${running.length} server processes gracefully`);
    if (running.length === 0) finish(exitCode);
    // One still starting listens for the message only once it is about to serve: it gets a signal,
    // which ends it before its handlers are installed and stops it gracefully after.
    for (const slot of running) {
      if (slot.serving && slot.worker?.isConnected()) slot.worker.send(STOP_MESSAGE);
      else slot.worker?.process.kill('SIGTERM');
    }
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) {
      stopAll(signal);
      return;
    }
    log.warn({ signal }, 'second signal: exiting without waiting');
    for (const slot of alive()) slot.worker?.process.kill('SIGKILL');
    finish(1);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  log.info({ processes }, `Dakiya runs ${processes} server processes on one port (WEB_CONCURRENCY=${processes})`);
  for (const slot of slots) fork(slot);
}
