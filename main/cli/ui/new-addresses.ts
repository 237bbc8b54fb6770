import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** What asks for a new address: a line on stdin (Enter), or SIGUSR2 from a shell. */
export interface AddressAsker {
  stop(): void;
}

/**
 * Prints a new address (`print`) each time the person asks: Enter in the terminal, or
 * `kill -USR2 <pid>` when `atelier ui` runs in the background. A background job that reads
 * its terminal is stopped by the shell (SIGTTIN), which would freeze the host: the terminal
 * is read only while the job is in the foreground, and again after `fg`.
 */
export function offerNewAddresses(print: () => void): AddressAsker {
  const input = process.stdin;
  const lines = createInterface({ input, terminal: false });
  lines.on('line', print);
  // (stdin gone: /dev/null, a closed pipe; the signal still works)
  input.on('error', () => lines.close());
  // At its end (stdin at end of file, or gone) the reader is closed: resuming it then throws,
  // and a SIGCONT (`fg`, timeout(1)'s stop) ended the host as an internal error.
  let closed = false;
  lines.once('close', () => (closed = true));
  const follow = () => {
    if (closed) return;
    if (inForeground()) lines.resume();
    else lines.pause();
  };
  follow();
  const signals = process.platform === 'win32' ? [] : (['SIGUSR2', 'SIGCONT'] as const);
  const onSignal = (signal: NodeJS.Signals) => (signal === 'SIGUSR2' ? print() : follow());
  for (const signal of signals) process.on(signal, onSignal);
  return {
    stop() {
      for (const signal of signals) process.off(signal, onSignal);
      lines.close();
      input.destroy();
    },
  };
}

/** Whether reading the terminal is safe: stdin is not one, or this job is its foreground. */
export function inForeground(): boolean {
  if (!process.stdin.isTTY || process.platform === 'win32') return true;
  const groups = processGroups();
  return groups === null || groups.pgrp === groups.foreground;
}

/** This process's group and its terminal's foreground group (Linux /proc, else `ps`). */
function processGroups(): { pgrp: number; foreground: number } | null {
  try {
    // after the command name in parentheses: state, ppid, pgrp, session, tty_nr, tpgid
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pgrp: Number(fields[2]), foreground: Number(fields[5]) };
  } catch {
    const ps = spawnSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], {
      encoding: 'utf8',
    });
    const [pgrp, foreground] = (ps.stdout ?? '').trim().split(/\s+/).map(Number);
    return Number.isInteger(pgrp) && Number.isInteger(foreground)
      ? { pgrp: pgrp!, foreground: foreground! }
      : null;
  }
}
