/**
 * Response headers as undici's request() gives them (lower-case names, a repeated header as an
 * array), a plain record of any case, or a WHATWG `Headers`: the pure functions accept each.
 */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export function header(headers: HeaderBag | undefined, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const wanted = name.toLowerCase();
  let value = record[wanted];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === wanted && record[key] !== undefined) {
        value = record[key];
        break;
      }
    }
  }
  if (value === undefined) return null;
  // Joined as Headers.get() joins a repeated header.
  return Array.isArray(value) ? value.join(', ') : value;
}
