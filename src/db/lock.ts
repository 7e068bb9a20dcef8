import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${path.dirname(lockFile)} is in use by another Dakiya process (pid ${pid}). ` +
        'Stop that process first, or use the running server (its API, or DATABASE_URL for a PostgreSQL server).',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means the process exists but belongs to someone else: still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const heldLocks = new Set<string>();

/**
 * PGlite has no lock of its own against a second process opening the same directory, and two
 * writers corrupt it. The lock file holds the owner's pid; a file left by a process that died is
 * taken over.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'dakiya.lock');
  // A lock file with our own pid is normally a dead predecessor's (pids are reused, pid 1 in
  // containers), so it is taken over; but not when this very process holds it.
  if (heldLocks.has(lockFile)) throw new DataDirLockedError(lockFile, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      heldLocks.add(lockFile);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldLocks.delete(lockFile);
          fs.rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(lockFile, pid);
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${lockFile}`);
}
