import type { ImageQueryInput } from '../../data/types.ts';

export type { ImageQueryInput };

/** Which images the gallery shows, by what became of their download. */
export type GalleryShow = 'written' | 'failed' | 'expired' | 'partial' | 'all';
export type GalleryGrouping = 'none' | 'batch' | 'day';
/** Whether the gallery shows what edits made, what generations made, or both. */
export type GalleryOrigin = 'any' | 'edits' | 'generated';

/** What the gallery's toolbar sets: the person's words, not yet the service's query. */
export interface GalleryView {
  text: string;
  batchId: number | null;
  model: string | null;
  size: string | null;
  /** Days as the date inputs give them (YYYY-MM-DD, local), both included. */
  from: string | null;
  to: string | null;
  favorite: boolean;
  show: GalleryShow;
  origin: GalleryOrigin;
  /** Only the edits of this image (its details' "Show its edits"). */
  editedFrom: number | null;
  order: 'newest' | 'oldest';
  group: GalleryGrouping;
}

export const DEFAULT_VIEW: GalleryView = {
  text: '',
  batchId: null,
  model: null,
  size: null,
  from: null,
  to: null,
  favorite: false,
  show: 'written',
  origin: 'any',
  editedFrom: null,
  order: 'newest',
  group: 'none',
};

export const SHOW_LABELS: Readonly<Record<GalleryShow, string>> = {
  written: 'Saved',
  failed: 'Download failed',
  expired: 'Link expired',
  partial: 'Partial results',
  all: 'Everything',
};

export const ORIGIN_LABELS: Readonly<Record<GalleryOrigin, string>> = {
  any: 'Generated and edited',
  edits: 'Edits only',
  generated: 'Generated only',
};

/** The download failure code of an expired link (the core's URL_EXPIRED_CODE). */
export const EXPIRED_CODE = 'url-expired';

/** The service's query for a view: only what is set, so equal views give equal queries. */
export function toImageQuery(view: GalleryView): ImageQueryInput {
  const query: ImageQueryInput = { order: view.order, downloadStates: ['done'] };
  const text = view.text.trim();
  if (text) query.text = text;
  if (view.batchId !== null) query.batchId = view.batchId;
  if (view.model) query.model = view.model;
  if (view.size) query.size = view.size;
  const from = view.from ? startOfDay(view.from) : null;
  const to = view.to ? startOfDay(view.to, 1) : null;
  if (from !== null) query.from = from;
  if (to !== null) query.to = to;
  if (view.favorite) query.favorite = true;
  if (view.origin !== 'any') query.edits = view.origin === 'edits';
  if (view.editedFrom !== null) query.editedFrom = view.editedFrom;
  switch (view.show) {
    case 'failed':
      query.downloadStates = ['failed'];
      break;
    case 'expired':
      query.downloadStates = ['failed'];
      query.failureCodes = [EXPIRED_CODE];
      break;
    case 'partial':
      query.partial = true;
      break;
    case 'all':
      query.downloadStates = ['pending', 'downloading', 'done', 'failed'];
      break;
  }
  return query;
}

/** One string per distinct query: lists and cursors are kept by it. */
export function queryKey(query: ImageQueryInput): string {
  return JSON.stringify(query, Object.keys(query).sort());
}

/** Local midnight of a YYYY-MM-DD day (plus `days`), in ms; null when it is no date. */
export function startOfDay(day: string, days = 0): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days).getTime();
  return Number.isNaN(at) ? null : at;
}

/** How many filters narrow the view (the search apart): the toolbar's "Clear" shows with it. */
export function activeFilters(view: GalleryView): number {
  return (
    Number(view.batchId !== null) +
    Number(Boolean(view.model)) +
    Number(Boolean(view.size)) +
    Number(Boolean(view.from) || Boolean(view.to)) +
    Number(view.favorite) +
    Number(view.show !== 'written') +
    Number(view.origin !== 'any') +
    Number(view.editedFrom !== null)
  );
}
