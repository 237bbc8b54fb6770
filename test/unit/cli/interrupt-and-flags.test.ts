import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../main/cli/command.ts';
import { parseHeaderFlags } from '../../../main/cli/run/headers.ts';
import { createInterruptHandler, interruptedExitCode } from '../../../main/cli/run/interrupt.ts';

describe('createInterruptHandler', () => {
  it('pauses on the first Ctrl+C and leaves at once on the second', () => {
    const calls: string[] = [];
    const handler = createInterruptHandler({
      pause: () => calls.push('pause'),
      exitNow: () => calls.push('exit'),
    });
    expect(handler.interrupted).toBe(false);
    handler.handle('SIGINT');
    expect(calls).toEqual(['pause']);
    expect(handler.interrupted).toBe(true);
    handler.handle('SIGINT');
    expect(calls).toEqual(['pause', 'exit']);
  });

  it('treats SIGTERM and SIGHUP as Ctrl+C: the second, of any kind, leaves; the last acted on is kept', () => {
    const calls: string[] = [];
    const handler = createInterruptHandler({
      pause: (signal) => calls.push(`pause ${signal}`),
      exitNow: (signal) => calls.push(`exit ${signal}`),
    });
    expect(handler.signal).toBeNull();
    handler.handle('SIGTERM');
    expect(handler.signal).toBe('SIGTERM');
    handler.handle('SIGHUP');
    handler.handle('SIGINT');
    expect(calls).toEqual(['pause SIGTERM', 'exit SIGHUP']);
    expect(handler.signal).toBe('SIGHUP');
  });

  it('exits as a shell reports a process ended by the signal: 128 + its number', () => {
    expect(interruptedExitCode('SIGINT')).toBe(130);
    expect(interruptedExitCode('SIGTERM')).toBe(143);
    expect(interruptedExitCode('SIGHUP')).toBe(129);
  });
});

describe('parseHeaderFlags', () => {
  it('turns repeated --header flags into extra headers, trimming around the colon', () => {
    expect(parseHeaderFlags(['X-Route: eu-west', 'X-Team:art', 'X-Token: a:b:c'])).toEqual({
      'X-Route': 'eu-west',
      'X-Team': 'art',
      'X-Token': 'a:b:c',
    });
    expect(parseHeaderFlags([])).toEqual({});
  });

  it.each([
    ['X-Route', /'Name: value'/],
    [': value', /'Name: value'/],
    ['X-Route:', /'Name: value'/],
    ['Bad Name: v', /'Name: value'/],
    ['authorization: Bearer sk-1', /ATELIER_API_KEY/],
  ])('refuses %j', (flag, message) => {
    expect(() => parseHeaderFlags([flag])).toThrow(UsageError);
    expect(() => parseHeaderFlags([flag])).toThrow(message);
  });

  it('refuses a header given twice, whatever its case', () => {
    expect(() => parseHeaderFlags(['X-A: 1', 'x-a: 2'])).toThrow(/given twice/);
  });
});
