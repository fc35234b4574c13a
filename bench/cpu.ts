/**
 * CPU time of processes, read from Linux's /proc (clock ticks of 1/100 s): where a benchmark's
 * time went. Elsewhere every reading is 0 and the benchmark prints no breakdown.
 */
import fs from 'node:fs';

const TICK = 100;

function stat(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Seconds of CPU a process used so far, its threads included. */
export function cpuSeconds(pid: number): number {
  const fields = stat(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICK : 0;
}

/**
 * Seconds of CPU of a process and all of its children, those that exited included (a server's
 * connection processes).
 */
export function treeCpuSeconds(pid: number): number {
  const own = stat(pid);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync('/proc')) {
    const child = Number(entry);
    if (!Number.isInteger(child)) continue;
    const fields = stat(child);
    if (fields && Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICK;
}
