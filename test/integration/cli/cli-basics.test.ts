import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = resolve(import.meta.dirname, '../../../bin/atelier.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('atelier command', () => {
  it('prints its commands with --help and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: atelier <command>/);
    expect(result.stdout).toMatch(/gateway/);
  });

  it('exits 2 with the usage for an unknown command', () => {
    const result = run('frobnicate');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('on a Node older than 24, says which Node it needs and how to run it, and exits 2', () => {
    // Node's version, as an older Node reports it: the check reads nothing else
    const olderNode =
      "data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'20.19.0'}})";
    const result = spawnSync(process.execPath, ['--import', olderNode, bin, 'status'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^atelier needs Node 24; this is Node 20\.19\.0\. .*npx atelier/);
    expect(result.stdout).toBe('');
  });

  it('exits 2 and explains a bad --faults spec', () => {
    const result = run('gateway', '--faults', '429:7');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/probability must be between 0 and 1/);
  });

  it('explains a bad --keys file with the field at fault', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-cli-'));
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify([{ key: 'sk-ok' }, { key: 'nope' }]));
    const result = run('gateway', '--keys', file);
    rmSync(dir, { recursive: true, force: true });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/1\.key: keys begin with "sk-"/);
  });

  it('runs the gateway, prints its URL and demo key, serves requests, and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [bin, 'gateway', '--port', '0', '--latency-ms', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    const started = new Promise<void>((ready) =>
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('Demo key')) ready();
      }),
    );
    await started;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    const key = /Demo key:\s+(sk-\S+)/.exec(output)?.[1];
    expect(url).toBeTruthy();
    expect(key).toBeTruthy();
    const response = await fetch(`${url}/v1/models`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
