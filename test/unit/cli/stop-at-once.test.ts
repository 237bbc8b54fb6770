import { describe, expect, it } from 'vitest';
import { createInterruptHandler } from '../../../main/cli/run/interrupt.ts';
import { stopAtOnce } from '../../../main/cli/run/stop-at-once.ts';

function fakeStream(answer = true) {
  const written: string[] = [];
  return {
    written,
    text: () => written.join(''),
    write(text: string, callback: (error?: Error | null) => void) {
      written.push(text);
      if (answer) setImmediate(() => callback());
      return true;
    },
  };
}

function exitPromise() {
  let exit!: (code: number) => void;
  const code = new Promise<number>((r) => (exit = r));
  return { code, exit };
}

describe('stopAtOnce (the second Ctrl+C)', () => {
  it('prints the summary on stdout, then exits with its code', async () => {
    const stdout = fakeStream();
    const stderr = fakeStream();
    const { code, exit } = exitPromise();
    stopAtOnce(() => ({ text: '{"outcome":"interrupted"}\n', exitCode: 130 }), {
      stdout,
      stderr,
      exit,
    });
    expect(await code).toBe(130);
    expect(stdout.text()).toBe('{"outcome":"interrupted"}\n');
    expect(stderr.text()).toContain('Stopped at once');
  });

  it('still exits, with 130, when the summary cannot be read; says why on stderr', async () => {
    const stdout = fakeStream();
    const stderr = fakeStream();
    const { code, exit } = exitPromise();
    stopAtOnce(
      () => {
        throw new Error('database is locked (key sk-abc123456789)');
      },
      { stdout, stderr, exit },
    );
    expect(await code).toBe(130);
    expect(stdout.written).toEqual([]);
    expect(stderr.text()).toMatch(/Could not read the summary \(database is locked/);
    expect(stderr.text()).toContain('atelier status');
    expect(stderr.text()).not.toContain('sk-abc123456789');
  });

  it('exits with the code of the signal that stopped it when the summary cannot be read', async () => {
    const { code, exit } = exitPromise();
    const render = () => {
      throw new Error('disk I/O error');
    };
    stopAtOnce(render, { stdout: fakeStream(), stderr: fakeStream(), exit }, 'SIGTERM');
    expect(await code).toBe(143);
  });

  it('does not wait for a stdout that never takes the text', async () => {
    const { code, exit } = exitPromise();
    stopAtOnce(() => ({ text: '{}\n', exitCode: 130 }), {
      stdout: fakeStream(false),
      stderr: fakeStream(),
      exit,
      timeoutMs: 20,
    });
    expect(await code).toBe(130);
  });
});

describe('Ctrl+C pressed more than twice', () => {
  it('stops once: a third press does not print a second summary', () => {
    const calls: string[] = [];
    const handler = createInterruptHandler({
      pause: () => calls.push('pause'),
      exitNow: () => calls.push('exit'),
    });
    handler.handle('SIGINT');
    handler.handle('SIGINT');
    handler.handle('SIGINT');
    expect(calls).toEqual(['pause', 'exit']);
  });
});
