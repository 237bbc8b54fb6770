import { z } from 'zod';
import { Count, Id, lazy } from './define.ts';

/** Opaque to clients: a keyset position the service encodes and checks. */
export const Cursor = z.string().min(1).max(512);

export const PageInput = lazy(() =>
  z.object({
    cursor: Cursor.nullish(),
    limit: z.number().int().min(1).max(500).default(100),
  }),
);

/** A page of items and where the next one starts (null at the end). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next: Cursor.nullable() });

/** Ids first, details of the visible range later (as InvokeAI's queue does). */
export const IdPage = lazy(() =>
  z.object({
    ids: z.array(Id),
    next: Cursor.nullable(),
    /** Every id the filter matches, not only this page's. */
    total: Count,
  }),
);

/** The longest id page; past it, page again. */
export const MAX_ID_PAGE = 10_000;
/** The most details asked for at once (a screenful, with room). */
export const MAX_DETAILS = 500;

export const ByIdsInput = lazy(() => z.object({ ids: z.array(Id).min(1).max(MAX_DETAILS) }));
/** Bulk actions: a selection of up to this many at once. */
export const Selection = lazy(() => z.object({ ids: z.array(Id).min(1).max(MAX_ID_PAGE) }));
export const Changed = lazy(() => z.object({ changed: Count }));
