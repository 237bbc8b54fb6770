import { describe, expect, it } from 'vitest';
import { printable } from '../../../shared/text/printable.ts';

describe('printable', () => {
  it('returns ordinary text unchanged, tabs and every script included', () => {
    for (const text of ['', 'a fox\tat dusk', 'café 灯台 🎨 \\ "quoted"']) {
      expect(printable(text)).toBe(text);
    }
  });

  it('escapes NUL, line breaks, escape sequences, DEL, C1 and bidi overrides', () => {
    expect(printable('a\0b\r\nc\u001b[31md\u007fe\u0085f\u202eg\u2066')).toBe(
      'a\\0b\\r\\nc\\u001b[31md\\u007fe\\u0085f\\u202eg\\u2066',
    );
  });

  it('keeps line feeds in a message of several lines, and is the same when run twice', () => {
    const once = printable('line 1: \u0001\nline 2: \0', { multiline: true });
    expect(once).toBe('line 1: \\u0001\nline 2: \\0');
    expect(printable(once, { multiline: true })).toBe(once);
  });
});
