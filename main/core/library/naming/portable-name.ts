import { truncateUtf8 } from './utf8.ts';

/** One path component, in UTF-8 bytes: below every common filesystem's 255. */
export const MAX_COMPONENT_BYTES = 200;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// control characters and the characters Windows forbids in names (also "/" everywhere)
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]/g;
// direction overrides and invisible marks: they can disguise a name ("gnp.exe")
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// what sanitizing could change in a name: anything but printable ASCII (NFC, invisible marks,
// control characters), a forbidden character, a run of spaces, a dot or space at either end
const NEEDS_SANITIZING = /[^\u0020-\u007e]|[<>:"/\\|?*]| {2}|^[ .]|[ .]$/;

/**
 * One path component made safe on Windows, macOS and Linux: NFC, no forbidden or control
 * characters, no leading or trailing dots and spaces, not a reserved device name, at most
 * `maxBytes` of UTF-8, never empty.
 */
export function sanitizeComponent(
  value: string,
  fallback = 'untitled',
  maxBytes = MAX_COMPONENT_BYTES,
): string {
  let name = value;
  // most names are already safe: one regex test instead of the whole pipeline (ASCII is one
  // byte a character, so the length is the UTF-8 size)
  if (name === '' || !(name.length <= maxBytes) || NEEDS_SANITIZING.test(name)) {
    name = value
      .normalize('NFC')
      .replace(INVISIBLE, '')
      .replace(/\s+/gu, ' ')
      .replace(FORBIDDEN, '_');
    name = trimEnds(truncateUtf8(trimEnds(name), maxBytes));
    if (name === '') name = fallback;
  }
  // CON, con.png, Com1.tar.gz: Windows reserves the device name whatever follows the dot
  const dot = name.indexOf('.');
  const base = dot < 0 ? name : name.slice(0, dot);
  if (WINDOWS_RESERVED.test(base.trim())) name = truncateUtf8(`_${name}`, maxBytes);
  return name;
}

/** The name without the dots and white space Windows drops (or hides) at either end. */
export function trimEnds(name: string): string {
  // most names start and end with a printable ASCII character other than ".": nothing to trim
  if (plainEnd(name.charCodeAt(0)) && plainEnd(name.charCodeAt(name.length - 1))) return name;
  return name.replace(/^[\s.]+|[\s.]+$/gu, '');
}

function plainEnd(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== 0x2e;
}
