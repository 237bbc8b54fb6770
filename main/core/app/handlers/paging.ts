import { AppError } from '../app-error.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';

/** The keyset a page cursor carries, or an `invalid-argument` error for a foreign one. */
export function cursorKeys<const S extends readonly ('number' | 'string')[]>(
  cursor: string | null | undefined,
  shape: S,
) {
  if (cursor === null || cursor === undefined) return null;
  const keys = decodeCursor(cursor, shape);
  if (!keys) {
    throw new AppError(
      'invalid-argument',
      'The page cursor is not one Atelier gave out (or is from another list): start from the first page.',
    );
  }
  return keys;
}

/** `rows` were read with `limit + 1`: the page, and the cursor of the next one if any. */
export function pageFrom<R, T>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => Array<number | string>,
  view: (row: R) => T,
): { items: T[]; next: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    items: page.map(view),
    next: more && page.length > 0 ? encodeCursor(keyOf(page[page.length - 1]!)) : null,
  };
}

export function notFound(what: string, id: number): AppError {
  return new AppError('not-found', `There is no ${what} ${id} (it may have been deleted).`);
}
