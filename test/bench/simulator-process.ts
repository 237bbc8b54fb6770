import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The embedded gateway in a process of its own, as the benchmarks need it. */
export async function startSimulatorProcess(
  flags: string[] = [],
): Promise<{ url: string; key: string; stop: () => void }> {
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
  return { url, key, stop: () => child.kill('SIGINT') };
}
