/**
 * Control characters (C0 but tab, DEL, C1) and the bidirectional overrides that reorder what a
 * terminal shows; with `multiline`, line feeds are kept.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNPRINTABLE_KEEP_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\0': '\\0', '\n': '\\n', '\r': '\\r' };

/**
 * Text quoted from a file or an argument, safe to print: a NUL shows as \0, a line break
 * inside a one-line message as \n or \r, any other control character as \uXXXX, so that
 * an error message can neither hide bytes nor send the terminal escape sequences.
 */
export function printable(text: string, options: { multiline?: boolean } = {}): string {
  const pattern = options.multiline ? UNPRINTABLE_KEEP_LF : UNPRINTABLE;
  // most messages have none: test before replacing
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(
    pattern,
    (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
