import { describe, expect, it } from 'vitest';
import { escapeNonAscii } from '../../../main/cli/bundle/ascii-output.ts';

describe('escapeNonAscii', () => {
  it('writes code in ASCII that means the same: strings, templates, regular expressions, names', () => {
    const code = [
      'const dash = "a — b";',
      "const quote = 'the app’s settings';",
      'const size = `${2}×${3}`;',
      'const times = /^\\d+[×x]\\d+$/;',
      'const face = "🙂";',
      'const smile = /🙂/u;',
      'const café = 1; // a comment with … in it',
      'return { dash, quote, size, times: times.test("64×64"), face, smile: smile.test("🙂"), café };',
    ].join('\n');
    const escaped = escapeNonAscii(code);
    expect(escaped).not.toMatch(/[^\0-\x7f]/);
    const run = (source: string) => new Function(source)() as Record<string, unknown>;
    expect(run(escaped)).toEqual(run(code));
    expect(run(escaped)).toEqual({
      dash: 'a — b',
      quote: 'the app’s settings',
      size: '2×3',
      times: true,
      face: '🙂',
      smile: true,
      café: 1,
    });
  });

  it('leaves ASCII as it is', () => {
    const code = 'const a = "plain" + `${1}`; // only ASCII\n';
    expect(escapeNonAscii(code)).toBe(code);
  });
});
