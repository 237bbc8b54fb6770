import type { Plugin } from 'rolldown';

/**
 * The bundle's files written in ASCII, every other character as its `\uXXXX` escape. One
 * character beyond Latin-1 (a ×, a …) makes V8 keep a whole file as a two-byte string: the
 * service's chunk (900 KB) was then read, hashed for the code cache and compiled in 9.4 ms at
 * every start instead of 6.3. An escape means the same character in a string, a template, a
 * regular expression or an identifier, and nothing in a comment; only a template's raw text
 * (String.raw) would differ, and the bundle has none (a test checks both).
 */
export function asciiOutput(): Plugin {
  return {
    name: 'atelier-ascii-output',
    // (when the files are final: a renderChunk's escapes are printed back by rolldown's own
    // last pass over the code)
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && /[^\0-\x7f]/.test(file.code))
          file.code = escapeNonAscii(file.code);
      }
    },
  };
}

/** `code` with each UTF-16 unit above 0x7f written as `\uXXXX`. */
export function escapeNonAscii(code: string): string {
  return code.replace(
    /[^\0-\x7f]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
