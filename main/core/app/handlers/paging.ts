import { AppError } from '../app-error.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';

/**
 * What a cursor belongs to: the list, and the filter and order it was made under. A cursor
 * from another list, or the same list filtered or ordered otherwise, would skip or repeat
 * items, so it is refused.
 */
export function listScope(list: string, filter: unknown = null): string {
  const text = JSON.stringify(filter);
  // FNV-1a: short and stable; a clash only lets a stale cursor through, never a wrong item
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${list}:${(hash >>> 0).toString(36)}`;
}

/** The keyset a page cursor carries, or an `invalid-argument` error for a foreign one. */
export function cursorKeys<const S extends readonly ('number' | 'string')[]>(
  cursor: string | null | undefined,
  shape: S,
  scope: string,
) {
  if (cursor === null || cursor === undefined) return null;
  const keys = decodeCursor(cursor, ['string', ...shape] as const);
  if (!keys || keys[0] !== scope) {
    throw new AppError(
      'invalid-argument',
      'The page cursor is not one Atelier gave out for this list, filter and order: start from the first page.',
    );
  }
  return keys.slice(1) as unknown as { [K in keyof S]: S[K] extends 'number' ? number : string };
}

/** `rows` were read with `limit + 1`: the page, and the cursor of the next one if any. */
export function pageFrom<R, T>(
  rows: R[],
  limit: number,
  scope: string,
  keyOf: (row: R) => Array<number | string>,
  view: (row: R) => T,
): { items: T[]; next: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    items: page.map(view),
    next: more && page.length > 0 ? encodeCursor([scope, ...keyOf(page[page.length - 1]!)]) : null,
  };
}

export function notFound(what: string, id: number): AppError {
  return new AppError('not-found', `There is no ${what} ${id} (it may have been deleted).`);
}
