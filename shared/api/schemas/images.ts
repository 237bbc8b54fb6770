import { z } from 'zod';
import { Count, Id, lazy, Time } from '../define.ts';
import { Cursor, MAX_ID_PAGE } from '../paging.ts';
import { DownloadStateSchema } from './counts.ts';
import { EditedFrom } from './edits.ts';

export const ImageSummary = lazy(() =>
  z.object({
    id: Id,
    jobId: Id,
    batchId: Id,
    /** Its number within the job. */
    idx: z.number().int().nonnegative(),
    kind: z.enum(['image', 'video']),
    /** Inside the library; null until written. */
    relPath: z.string().nullable(),
    /**
     * The path to ask for under the thumbnail route (`/thumbs/…`, `atelier://thumbs/…`): the
     * image's own path, the host finds its thumbnail; null when thumbnails are not made.
     */
    thumbRelPath: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    format: z.string().nullable(),
    bytes: z.number().int().nullable(),
    model: z.string(),
    /** The size asked for (width and height are the file's). */
    size: z.string().nullable(),
    favorite: z.boolean(),
    downloadState: DownloadStateSchema,
    /** Why its download failed (`link-expired`, `disk-full`…), when it did. */
    failureCode: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: Time,
    /** Cut like a job summary's prompt. */
    prompt: z.string(),
  }),
);

export const ImageDetail = lazy(() =>
  ImageSummary.unwrap().extend({
    prompt: z.string(),
    revisedPrompt: z.string().nullable(),
    negativePrompt: z.string().nullable(),
    /** The seed the gateway said it used, else the one asked for; null when neither is known. */
    seed: z.number().int().nullable(),
    /** Where `seed` comes from: the gateway's answer, or the request (the gateway said none). */
    seedFrom: z.enum(['gateway', 'request']).nullable().optional(),
    params: z.record(z.string(), z.unknown()),
    batchName: z.string(),
    requestId: z.string().nullable(),
    upstreamRequestId: z.string().nullable(),
    sha256: z.string().nullable(),
    /** Absolute path on this machine, null until written. */
    path: z.string().nullable(),
    /** What it was edited from; null (or absent) when it was generated. */
    editedFrom: EditedFrom.nullable().optional(),
  }),
);

/** A value the written images have, and how many have it. */
export const Facet = lazy(() => z.object({ value: z.string().nullable(), count: Count }));

/**
 * What the library holds, for the gallery's filters: the sizes asked for (null: the model's
 * own), smallest first, and the models that made images, by name; written images only.
 */
export const ImageFacets = lazy(() => z.object({ sizes: z.array(Facet), models: z.array(Facet) }));

/** Every filter the gallery composes; all optional, AND-ed. */
export const ImageQuery = lazy(() =>
  z.object({
    batchId: Id.optional(),
    model: z.string().min(1).optional(),
    size: z.string().min(1).optional(),
    /** Created at or after (ms). */
    from: Time.optional(),
    /** Created before (ms). */
    to: Time.optional(),
    favorite: z.boolean().optional(),
    downloadStates: z.array(DownloadStateSchema).min(1).default(['done']),
    /** Only failed downloads with these codes (e.g. `link-expired`). */
    failureCodes: z.array(z.string().min(1)).min(1).optional(),
    /** Only images of partial successes: jobs that returned fewer images than they asked for. */
    partial: z.boolean().optional(),
    /** Only images made by an edit (true), or none of them (false). */
    edits: z.boolean().optional(),
    /** Only the edits of this image. */
    editedFrom: Id.optional(),
    /** Full-text search over prompts: words, "quoted phrases", prefix*. */
    text: z.string().max(500).optional(),
    order: z.enum(['newest', 'oldest']).default('newest'),
  }),
);

export const ImagePageInput = lazy(() =>
  z.object({
    query: ImageQuery.prefault({}),
    cursor: Cursor.nullish(),
    limit: z.number().int().min(1).max(500).default(100),
  }),
);
export const ImageIdsInput = lazy(() =>
  z.object({
    query: ImageQuery.prefault({}),
    cursor: Cursor.nullish(),
    limit: z.number().int().min(1).max(10_000).default(10_000),
  }),
);

export const FavoriteInput = lazy(() =>
  z.object({
    ids: z.array(Id).min(1).max(10_000),
    favorite: z.boolean(),
  }),
);

export const RetryDownloadsInput = lazy(() => z.object({ ids: z.array(Id).min(1).max(10_000) }));
export const RetryDownloadsReport = lazy(() =>
  z.object({
    /** Downloads queued again from the stored link or bytes: no generation request. */
    queued: Count,
    /**
     * Of those queued, links that had expired: asked again (some stores answer 404 for a while);
     * one that fails again can only be brought back by generating the image again.
     */
    expired: Count,
  }),
);

/** How the gallery groups what it shows. */
export const ImageGrouping = z.enum(['batch', 'day']);

export const ImageGroupsInput = lazy(() =>
  z.object({
    query: ImageQuery.prefault({}),
    by: ImageGrouping,
  }),
);
/**
 * A run of consecutive images of the list (in the query's order) that share a batch or a day:
 * the counts add up to the filter's total, so a view lays out headers without the images.
 */
export const ImageGroup = lazy(() =>
  z.object({
    /** The batch id, or the day as YYYY-MM-DD in the service's local time. */
    key: z.string(),
    /** The batch's name, or the same day. */
    label: z.string(),
    count: Count,
  }),
);

export const DeleteImagesInput = lazy(() => z.object({ ids: z.array(Id).min(1).max(MAX_ID_PAGE) }));
export const DeleteImagesReport = lazy(() =>
  z.object({
    /** Images whose records are gone. */
    deleted: Count,
    /** Files (image, sidecar, thumbnail) moved to the system trash. */
    trashed: Count,
    /** Files deleted outright: the host has no trash. */
    removed: Count,
  }),
);

/** The most images one export may name by id (a filter has no limit). */
export const MAX_EXPORT_IDS = 200_000;

export const ExportInput = lazy(() =>
  z.object({
    /** A selection, or a filter (a batch is a filter with its id). */
    source: z.union([
      z.object({ ids: z.array(Id).min(1).max(MAX_EXPORT_IDS) }),
      z.object({ query: ImageQuery.prefault({}) }),
    ]),
    /**
     * Never from the page: the desktop asks with its save dialog in the main process, the
     * browser host writes to the library's `Exports` folder (a page could otherwise write a zip
     * anywhere the person can). Refused with a sentence rather than ignored.
     */
    destination: z
      .never({
        error:
          'the page cannot choose where a zip is written: the desktop asks with its save dialog, ' +
          "the browser host writes to the library's Exports folder. Leave destination out",
      })
      .optional(),
  }),
);
export const ExportStarted = lazy(() =>
  z.object({
    /** Null when the person closed the save dialog: nothing started. */
    id: z.string().nullable(),
    path: z.string().nullable(),
    /** Images to write (written images of the source only). */
    total: Count,
  }),
);
export const ExportState = z.enum(['running', 'done', 'canceled', 'failed']);
/** An export's progress; the same shape in `export.progress` events. */
export const ExportProgress = lazy(() =>
  z.object({
    id: z.string(),
    state: ExportState,
    path: z.string(),
    done: Count,
    total: Count,
    /** Zip bytes written so far. */
    bytes: Count,
    /** What went wrong, when it failed. */
    error: z.string().nullable(),
  }),
);
