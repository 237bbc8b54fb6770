import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** `atelier gateway` in its own process, as a person runs it; its address and demo key. */
export interface GatewayProcess {
  url: string;
  key: string;
  child: ChildProcess;
  /** What the simulator charged the key so far (its admin route). */
  ledger(): Promise<Array<{ requestId: string; state: string }>>;
  stop(): Promise<void>;
}

export async function startGatewayProcess(args: string[]): Promise<GatewayProcess> {
  const bin = path.resolve(import.meta.dirname, '../../bin/atelier.js');
  const child = spawn(process.execPath, [bin, 'gateway', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const { url, key } = await new Promise<{ url: string; key: string }>((ready, fail) => {
    child.once('exit', (code) => fail(new Error(`atelier gateway exited with ${code}: ${err}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /listening on (\S+)/.exec(out)?.[1];
      const key = /Demo key:\s+(\S+)/.exec(out)?.[1];
      if (url && key) ready({ url, key });
    });
  });
  return {
    url,
    key,
    child,
    async ledger() {
      const response = await fetch(`${url}/_simulator/ledger`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as {
        entries: Array<{ requestId: string; state: string }>;
      };
      return body.entries;
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGINT');
      }),
  };
}
