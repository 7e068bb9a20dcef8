import fs from 'node:fs';
import pino from 'pino';

export interface LogDestination {
  write(line: string): void;
  /** Writes every line logged so far before returning (at shutdown). */
  flushSync(): void;
}

/**
 * Where the server's log lines go: a file descriptor (standard output), written asynchronously so a
 * request never waits for the terminal or the disk, and in batches: the lines logged during one
 * turn of the event loop leave in one write after it. Under load a turn answers many requests, and
 * a write per line (each a round trip through libuv's thread pool) cost more CPU than forming the
 * lines; a quiet server's line still leaves at once.
 */
export function logDestination(fd = 1): LogDestination {
  const stream = pino.destination({ dest: fd, sync: false });
  let held = '';
  const release = () => {
    if (held === '') return;
    const lines = held;
    held = '';
    stream.write(lines);
  };
  const flushSync = () => {
    release();
    stream.flushSync();
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
      if (held === '') setImmediate(release);
      held += line;
    },
    flushSync,
  };
}
