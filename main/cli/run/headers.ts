import { HEADER_NAME, HEADERS_ATELIER_SETS } from '../../../shared/gateway/profile.ts';
import { UsageError } from '../command.ts';

/**
 * `--header 'Name: value'` flags as the gateway profile's extra headers. A malformed one is
 * a usage error; so is Authorization, which Atelier sends itself from ATELIER_API_KEY, and
 * any other header Atelier sets itself (Content-Length, Host, Connection…).
 */
export function parseHeaderFlags(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const name = colon > 0 ? flag.slice(0, colon).trim() : '';
    const value = colon > 0 ? flag.slice(colon + 1).trim() : '';
    if (!HEADER_NAME.test(name) || value === '') {
      throw new UsageError(
        `--header "${flag}" is not of the form 'Name: value' (e.g. --header 'X-Route: eu').`,
      );
    }
    if (/[\r\n\0]/.test(value)) {
      throw new UsageError(`--header ${name}: the value must be on one line.`);
    }
    if (name.toLowerCase() === 'authorization') {
      throw new UsageError(
        '--header Authorization: the key is sent by Atelier itself; set ATELIER_API_KEY instead.',
      );
    }
    if (HEADERS_ATELIER_SETS.has(name.toLowerCase())) {
      throw new UsageError(
        `--header ${name}: Atelier sets it itself, from the request it sends; leave it out.`,
      );
    }
    const existing = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
    if (existing) {
      throw new UsageError(`--header ${name} is given twice; give each header once.`);
    }
    headers[name] = value;
  }
  return headers;
}
