import { z } from 'zod';
import { lazy } from '../define.ts';
import { boundedJson } from '../json-limits.ts';

/** The largest draft kept (a dropped prompt file is kept with it up to this size). */
export const MAX_DRAFT_CHARS = 2 * 1024 * 1024;

/**
 * What the person is composing, kept by the service so that it survives a reload and a
 * restart (the browser host's address changes port at each start, and with it the browser's
 * storage). Its fields are Compose's own: the service keeps them as they come.
 */
export const ComposeDraftRecord = lazy(() =>
  z.object({
    // (a safety net against hostile nesting; the handler says "too large" in a person's words first)
    draft: boundedJson(z.record(z.string(), z.unknown()), {
      maxDepth: 32,
      maxBytes: 2 * MAX_DRAFT_CHARS,
    }),
    /** The next batch's name. */
    name: z.string().max(200),
  }),
);
