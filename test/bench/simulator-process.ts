import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** CPU time (user + system, ms) a process has used so far; null where /proc is missing. */
export function processCpuMs(pid: number): number | null {
  try {
    // fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux)
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The embedded gateway in a process of its own, as the benchmarks need it. */
export async function startSimulatorProcess(
  flags: string[] = [],
): Promise<{ url: string; key: string; cpuMs: () => number | null; stop: () => void }> {
  const bin = resolve(import.meta.dirname, '../../bin/atelier.js');
  const child = spawn(process.execPath, [bin, 'gateway', '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((ready, fail) => {
    child.once('exit', (code) => fail(new Error(`the simulator exited with code ${code}`)));
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Demo key')) ready();
    });
  });
  const url = /listening on (\S+)/.exec(output)?.[1] ?? '';
  const key = /Demo key:\s+(\S+)/.exec(output)?.[1] ?? '';
  return { url, key, cpuMs: () => processCpuMs(child.pid!), stop: () => child.kill('SIGINT') };
}
