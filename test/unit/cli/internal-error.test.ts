import { describe, expect, it, vi } from 'vitest';
import {
  describeInternalError,
  INTERNAL_ERROR_EXIT_CODE,
  internalErrorHandler,
} from '../../../main/cli/internal-error.ts';

/** A stderr stand-in: keeps what is written; `answer` false never acknowledges a write. */
function fakeStream(answer = true) {
  const written: string[] = [];
  return {
    written,
    write(text: string, callback: (error?: Error | null) => void) {
      written.push(text);
      if (answer) setImmediate(() => callback());
      return true;
    },
  };
}

function exits() {
  const codes: number[] = [];
  let resolveFirst!: (code: number) => void;
  const first = new Promise<number>((r) => (resolveFirst = r));
  return {
    codes,
    first,
    exit: (code: number) => {
      codes.push(code);
      resolveFirst(code);
    },
  };
}

describe('describeInternalError', () => {
  it('says what went wrong in one line, that it is a bug, then gives the stack', () => {
    const error = new Error('Cannot read properties of undefined\n(reading "id").');
    const text = describeInternalError(error);
    const [first, blank, ...stack] = text.split('\n');
    expect(first).toBe(
      'atelier: internal error: Cannot read properties of undefined (reading "id"). ' +
        'This is a bug in Atelier; please report it with the details below.',
    );
    expect(blank).toBe('');
    expect(stack.join('\n')).toContain('internal-error.test.ts');
  });

  it('never prints the key: removed by value, and any sk- key or bearer token by shape', () => {
    const error = new Error('request to gw-key-0123456789 failed with sk-live-abcdef123456');
    error.stack = `${error.message}\n    headers: Authorization: Bearer tok-998877\n    at send (x.ts:1:1)`;
    const text = describeInternalError(error, ['gw-key-0123456789']);
    expect(text).not.toContain('gw-key-0123456789');
    expect(text).not.toContain('sk-live-abcdef123456');
    expect(text).not.toContain('tok-998877');
    expect(text).toContain('sk-…(redacted)');
    expect(text).toContain('at send (x.ts:1:1)');
  });

  it('describes a thrown value that is not an Error', () => {
    expect(describeInternalError('boom')).toBe(
      'atelier: internal error: boom. This is a bug in Atelier; please report it with the ' +
        'details below.\n',
    );
    expect(describeInternalError(undefined)).toMatch(/^atelier: internal error: undefined\./);
  });
});

describe('internalErrorHandler', () => {
  it('prints the error with the key from ATELIER_API_KEY removed, then exits with 70', async () => {
    const stderr = fakeStream();
    const exit = exits();
    const key = 'sk-atelier-test-key-42';
    internalErrorHandler({ stderr, exit: exit.exit, env: { ATELIER_API_KEY: key } })(
      new TypeError(`bad header for ${key}`),
    );
    expect(await exit.first).toBe(INTERNAL_ERROR_EXIT_CODE);
    expect(INTERNAL_ERROR_EXIT_CODE).toBe(70);
    expect(stderr.written.join('')).toMatch(/^atelier: internal error: bad header for sk-…/);
    expect(stderr.written.join('')).not.toContain(key);
  });

  it('exits even when stderr never takes the text (a reader that stopped reading)', async () => {
    const exit = exits();
    internalErrorHandler({ stderr: fakeStream(false), exit: exit.exit, env: {}, timeoutMs: 20 })(
      new Error('x'),
    );
    expect(await exit.first).toBe(70);
    expect(exit.codes).toEqual([70]);
  });

  it('leaves at once on an error raised while the first is being reported', () => {
    vi.useFakeTimers();
    try {
      const stderr = fakeStream(false);
      const exit = exits();
      const handle = internalErrorHandler({ stderr, exit: exit.exit, env: {}, timeoutMs: 50 });
      handle(new Error('first'));
      handle(new Error('second'));
      expect(exit.codes).toEqual([70]);
      expect(stderr.written).toHaveLength(1);
      vi.advanceTimersByTime(50); // stderr never drained: the first report's wait ends
      expect(exit.codes).toEqual([70, 70]);
    } finally {
      vi.useRealTimers();
    }
  });
});
