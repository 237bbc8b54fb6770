import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../main/cli/command.ts';
import { parseHeaderFlags } from '../../../main/cli/run/headers.ts';
import { limitFlags } from '../../../main/cli/run/limit-flags.ts';

describe('headers Atelier sets itself', () => {
  it.each([
    'Content-Length: 5',
    'host: evil.example',
    'Transfer-Encoding: chunked',
    'Connection: close',
    'Keep-Alive: 5',
    'Upgrade: h2c',
    'Expect: 100-continue',
  ])('refuses %j with a clear message', (flag) => {
    const name = flag.slice(0, flag.indexOf(':'));
    expect(() => parseHeaderFlags([flag])).toThrow(UsageError);
    expect(() => parseHeaderFlags([flag])).toThrow(`--header ${name}: Atelier sets it itself`);
  });
});

describe('limitFlags', () => {
  it('turns megabytes and seconds into the core options', () => {
    expect(
      limitFlags({
        'max-image-mb': '5',
        'max-video-mb': '300',
        'download-idle-s': '12',
        'max-answer-mb': '64',
      }),
    ).toEqual({
      engine: { maxImageBytes: 5 * 2 ** 20, maxVideoBytes: 300 * 2 ** 20, downloadIdleMs: 12_000 },
      client: { maxAnswerBytes: 64 * 2 ** 20 },
    });
    expect(limitFlags({})).toEqual({ engine: {}, client: {} });
  });

  it('keeps an answer below what one string can hold', () => {
    expect(() => limitFlags({ 'max-answer-mb': '600' })).toThrow(
      '--max-answer-mb must be a whole number from 1 to 500',
    );
  });
});
