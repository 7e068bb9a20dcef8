import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  /** What `nproc` prints: CPUs this process may run on. */
  cpus: number;
  cpuModel: string;
  node: string;
  os: string;
  memoryGiB: number;
}

/** The CPU model as /proc/cpuinfo names it (Linux), else what Node reports. */
function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // not Linux: fall through
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function machineInfo(): MachineInfo {
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpuModel(),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
  };
}

export function describeMachine(info: MachineInfo = machineInfo()): string {
  return `${info.cpus} CPU (nproc), ${info.cpuModel}, ${info.memoryGiB} GiB RAM, Node ${info.node}, ${info.os}`;
}

/**
 * The 1-minute load average against the CPU count: a figure taken while other processes compete
 * for the CPUs is not comparable with one taken on a quiet machine.
 */
export function describeLoad(): string {
  const [one, five] = os.loadavg();
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) on ${os.availableParallelism()} CPUs`;
}
