import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { MAX_ID_PAGE } from '../../../shared/api/paging.ts';

/** A list of ids (every page of it), what the filter matches in all, and whether all came. */
export interface IdList {
  ids: readonly number[];
  total: number;
  complete: boolean;
}

type IdPage = { ids: number[]; next: string | null; total: number };

/**
 * Every page of an id list, for a query function. A first load shows its first page at once
 * (written to the cache while the rest comes); a reload keeps what is shown until the new list
 * is whole. When only newer ids came on top of a list in newest-first order (images written
 * while it was open), a short first page says so and the rest is kept, not asked again.
 */
export async function loadIdList<T extends IdList = IdList>(
  client: QueryClient,
  key: QueryKey,
  page: (cursor: string | null, limit: number) => Promise<IdPage>,
  options: {
    newerOnTop?: boolean;
    shape?: (list: IdList) => T;
    /** A first load shows its pages once this settles (what its rows need first), not before. */
    showAfter?: Promise<unknown>;
  } = {},
): Promise<IdList> {
  const shape = options.shape ?? ((list: IdList) => list as T);
  const before = client.getQueryData<IdList>(key);
  if (options.newerOnTop && before?.complete && before.ids.length > 0) {
    const head = await page(null, PEEK);
    const grown = newerOnTop(before.ids, head);
    if (grown) return { ids: grown, total: head.total, complete: true };
  }
  // the pages shown in order, each once what must come first is in (the next page is asked
  // for meanwhile)
  let shown = options.showAfter;
  const show = (list: IdList) => {
    const write = () => void client.setQueryData<T>(key, shape(list));
    if (shown) shown = shown.then(write, write);
    else write();
  };
  const first = await page(null, MAX_ID_PAGE);
  let ids = first.ids;
  let next = first.next;
  if (next !== null && !before) show({ ids, total: first.total, complete: false });
  let total = first.total;
  while (next !== null) {
    const more = await page(next, MAX_ID_PAGE);
    ids = ids.concat(more.ids);
    next = more.next;
    total = more.total;
    if (!before) show({ ids, total, complete: next === null });
  }
  await shown?.catch(() => undefined); // what it waited for failing is its owner's to say
  return { ids, total, complete: true };
}

/** Ids read to see whether only newer ones came (more than a queue writes between events). */
const PEEK = 1_000;

/**
 * The list with the newer ids of a fresh first page on top, when that is all that changed
 * (the old first id is in the page and the total grew by exactly the ids above it); else null.
 */
export function newerOnTop(
  old: readonly number[],
  page: { ids: readonly number[]; total: number },
): readonly number[] | null {
  if (old.length === 0 || page.ids.length === 0) return null;
  const at = page.ids.indexOf(old[0]!);
  if (at < 0) return null;
  if (page.total !== old.length + at) return null;
  // the rest of the page must match what was loaded, or something moved
  for (let i = at; i < page.ids.length && i - at < old.length; i++) {
    if (page.ids[i] !== old[i - at]) return null;
  }
  return at === 0 ? old : [...page.ids.slice(0, at), ...old];
}
