import { readFileSync } from 'node:fs';

/**
 * Only one process may run a queue: two engines on one data folder (the desktop app and
 * `atelier run`) would each take the other's running jobs for crash leftovers. The runner
 * holds a lease it renews; another process may take it over only when the holder is gone.
 */
export interface RunnerLease {
  id: string;
  pid: number;
  host: string;
  heartbeatAt: number;
}

/**
 * A lease not renewed for this long is abandoned: several missed heartbeats (the engine beats
 * every 5 s), so a busy process is not taken for a dead one. Shared by the engine and the CLI.
 */
export const LEASE_STALE_AFTER_MS = 30_000;

export interface LeaseRules {
  /** A lease not renewed for this long is abandoned (the holder hung or its machine died). */
  staleAfterMs: number;
  /** Whether a process of this machine still exists; a crashed holder frees its lease at once. */
  isAlive: (pid: number) => boolean;
}

export function mayTakeOver(
  holder: RunnerLease | null,
  me: Pick<RunnerLease, 'id' | 'host'>,
  now: number,
  rules: LeaseRules,
): boolean {
  if (holder === null || holder.id === me.id) return true;
  if (now - holder.heartbeatAt > rules.staleAfterMs) return true;
  return holder.host === me.host && !rules.isAlive(holder.pid);
}

/** For the error a second process shows. */
export function describeHolder(holder: RunnerLease, now: number): string {
  const seconds = Math.max(0, Math.round((now - holder.heartbeatAt) / 1000));
  return (
    `Another Atelier (process ${holder.pid} on ${holder.host}) is running this queue ` +
    `(last seen ${seconds} s ago). Close it, or use another data folder (--data DIR).`
  );
}

/**
 * process.kill(pid, 0) probes without signalling; EPERM means it exists but is not ours. A
 * zombie (exited, not reaped: under an init that does not reap, a container's app as PID 1)
 * still answers it, so on Linux its state is read first: Z or X is dead.
 */
export function processIsAlive(pid: number): boolean {
  if (process.platform === 'linux') {
    const state = linuxProcessState(pid);
    if (state === 'Z' || state === 'X') return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** The state letter of /proc/PID/stat, or null when it cannot be read (no such process). */
function linuxProcessState(pid: number): string | null {
  try {
    return stateOfProcStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return null;
  }
}

/**
 * The state from a /proc/PID/stat line, "PID (comm) S …". The command name may itself hold
 * spaces and parentheses, so the state follows the last ")".
 */
export function stateOfProcStat(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  if (close === -1 || stat[close + 1] !== ' ') return null;
  return stat[close + 2] ?? null;
}
