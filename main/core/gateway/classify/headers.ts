/** Response headers as `Headers` or a plain record: the pure functions accept either. */
export type HeaderBag = Headers | Record<string, string | undefined>;

export function header(headers: HeaderBag | undefined, name: string): string | null {
  if (!headers) return null;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | undefined>)) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return null;
}
