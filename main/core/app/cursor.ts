/**
 * Page and event cursors: opaque to clients, a short list of keyset values to the service.
 * A cursor that does not decode to the expected shape is refused, never guessed at.
 */
export type CursorKey = number | string;

export function encodeCursor(keys: readonly CursorKey[]): string {
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

/** The keys, or null when the cursor is not one of ours or has another shape. */
export function decodeCursor<const S extends readonly ('number' | 'string')[]>(
  cursor: string,
  shape: S,
): { [K in keyof S]: S[K] extends 'number' ? number : string } | null {
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(keys) || keys.length !== shape.length) return null;
  const ok = shape.every((type, i) =>
    type === 'number' ? Number.isSafeInteger(keys[i]) : typeof keys[i] === 'string',
  );
  return ok ? (keys as never) : null;
}
