import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${path.dirname(lockFile)} is in use by another Dakiya process (pid ${pid}). ` +
        "Stop it first, or use that server's operator API (/admin/v1, the same commands over HTTP), which it " +
        'serves only when started with ADMIN_TOKEN set (at least 16 characters): see "First steps" in the README.',
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

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined
 * where there is no /proc. A pid is reused; a pid and its start time name one process for good.
 */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

/** Whether a process could be a Dakiya server: Node (or tsx) runs it. Unknown (no /proc) counts as yes. */
function mayBeDakiya(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || !fs.existsSync('/proc/self');
  }
  const program = path.basename(cmdline.split('\0')[0] ?? '');
  return /node|tsx|dakiya/i.test(program);
}

/**
 * Whether the process a lock file names still holds it. The file records the pid and the process's
 * start time: a live pid with another start time is an unrelated process that was given a dead
 * holder's pid. A file without the start time (an older Dakiya, or no /proc) falls back to asking
 * whether the live process is a Node process at all.
 */
function holderIsAlive(pid: number, startTime: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  const actual = processStartTime(pid);
  if (startTime !== undefined && actual !== undefined) return startTime === actual;
  return mayBeDakiya(pid);
}

const heldLocks = new Set<string>();

/**
 * PGlite has no lock of its own against a second process opening the same directory, and two
 * writers corrupt it. The lock file holds the owner's pid and start time; a file left by a process
 * that died, or whose pid now belongs to another process, is taken over.
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
      const startTime = processStartTime(process.pid);
      fs.writeSync(fd, startTime === undefined ? String(process.pid) : `${process.pid} ${startTime}`);
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
      const [rawPid, startTime] = fs.readFileSync(lockFile, 'utf8').trim().split(/\s+/);
      const pid = Number.parseInt(rawPid ?? '', 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && holderIsAlive(pid, startTime)) {
        throw new DataDirLockedError(lockFile, pid);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${lockFile}`);
}
