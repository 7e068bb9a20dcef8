import fs from 'node:fs';
import pino from 'pino';

export interface LogDestination {
  write(line: string): void;
  /** Writes every line logged so far before returning (at shutdown). */
  flushSync(): void;
}

/** How long a line may wait for others before they leave together, and how much may wait. */
export const LOG_BATCH_MS = 50;
export const LOG_BATCH_BYTES = 64 * 1024;

/**
 * Where the server's log lines go: a file descriptor (standard output), written asynchronously so a
 * request never waits for the terminal or the disk, and in batches: the lines logged within 50 ms
 * leave in one write (sooner once 64 KiB wait). Each write is a round trip through libuv's thread
 * pool, a wake-up of one of its threads and of the event loop again; a write per line, or per turn
 * of the event loop, cost more CPU than forming the lines: at one line a turn, 22–25 µs a line against
 * 4–7 µs batched so (npm run bench:log-writes; decision 118).
 */
export function logDestination(fd = 1): LogDestination {
  const stream = pino.destination({ dest: fd, sync: false });
  let held = '';
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    if (held === '') return;
    const lines = held;
    held = '';
    stream.write(lines);
  };
  // The lines held here are written by this thread, not handed to the stream: a write handed over
  // goes to libuv's pool at once, which the stream's flushSync does not wait for, so the lines could
  // still be on their way when it returns. As at exit (below), the stream's own first.
  const flushSync = () => {
    clearTimeout(timer);
    timer = undefined;
    stream.flushSync();
    if (held === '') return;
    const lines = held;
    held = '';
    fs.writeSync(fd, lines);
  };
  // process.exit() (a failed start-up, a second signal) runs no more turns of the loop. pino ends
  // its stream on exit, after writing what the stream holds; the lines held here are newer.
  process.once('exit', () => {
    if (held === '') return;
    try {
      fs.writeSync(fd, held);
    } catch {
      // Standard output already closed: nothing left to write to.
    }
  });
  return {
    write(line) {
      // Unreferenced: lines waiting keep no process alive; the exit handler above writes them.
      if (timer === undefined) timer = setTimeout(release, LOG_BATCH_MS).unref();
      held += line;
      if (held.length >= LOG_BATCH_BYTES) release();
    },
    flushSync,
  };
}
