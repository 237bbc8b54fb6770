import { z } from 'zod';
import { Done, Id, lazy, method, NoInput } from './define.ts';
import { ByIdsInput, Changed, IdPage, PageInput, pageOf, Selection } from './paging.ts';
import {
  AddModelsInput,
  AppInfo,
  Catalogue,
  ConnectionInput,
  ConnectionTest,
  KeyInput,
  KeyScope,
  KeyStatus,
  LibraryInfo,
  LibraryMove,
  SaveModelsInput,
  SetLibraryInput,
  TemplateInput,
  TemplatePreview,
} from './schemas/app.ts';
import {
  BatchCheck,
  BatchDetail,
  BatchPositionInput,
  BatchSummary,
  CheckBatchInput,
  CreateBatchInput,
  ResumeBatchInput,
} from './schemas/batches.ts';
import { CreateEditsInput, EditCheck, EditInput } from './schemas/edits.ts';
import {
  DeleteImagesInput,
  DeleteImagesReport,
  ExportInput,
  ExportProgress,
  ExportStarted,
  FavoriteInput,
  ImageDetail,
  ImageFacets,
  ImageGroup,
  ImageGroupsInput,
  ImageIdsInput,
  ImagePageInput,
  ImageQuery,
  ImageSummary,
  RetryDownloadsInput,
  RetryDownloadsReport,
} from './schemas/images.ts';
import {
  Actionable,
  AttemptsInput,
  AttemptSummary,
  JobDetail,
  JobIdsInput,
  JobSummary,
  MoveJobsInput,
  RetryJobsInput,
  TopUpReport,
} from './schemas/jobs.ts';
import {
  Canceled,
  Limits,
  QueueState,
  ResumeQueueInput,
  RetryInput,
  RetryReport,
  SetLimitsInput,
} from './schemas/queue.ts';
import { ExpandInput, PromptHelp, ThemeInput, VaryInput } from './schemas/prompts.ts';
import { SettingsPatch, SettingsView } from './schemas/settings.ts';
import { ComposeDraftRecord } from './schemas/compose.ts';
import { SpendSummary, SpendSummaryInput } from './schemas/spend.ts';

const ById = lazy(() => z.object({ id: Id }));

/**
 * The whole renderer <-> service API, grouped by area. This is the only place a method is
 * added: the service's handlers, the Electron preload, IPC, the web host and the web client
 * are all generic over it, and TypeScript fails wherever one is missing.
 */
export const contract = {
  batches: {
    list: method(PageInput, pageOf(BatchSummary)),
    get: method(ById, BatchDetail),
    /** Checks every row as the run would, without creating anything. */
    check: method(CheckBatchInput, BatchCheck),
    /**
     * Fails with `prompt-file` (details.rows, details.bad) and creates nothing on a bad row;
     * with `confirmation-required` (details.spend) when it would start spending past the
     * threshold without `confirmedSpend`.
     */
    create: method(CreateBatchInput, BatchSummary),
    rename: method(z.object({ id: Id, name: z.string().trim().min(1).max(200) }), Done),
    move: method(BatchPositionInput, Done),
    pause: method(ById, Done),
    /** Past the threshold, with `confirmedSpend` of its work left (else `confirmation-required`). */
    resume: method(ResumeBatchInput, Done),
    cancel: method(ById, Canceled),
    /** Forgets the batch's records; its files stay in the library. */
    delete: method(ById, Done),
  },
  edits: {
    /** Checks an edit as the run would send it, row by row, creating and sending nothing. */
    check: method(EditInput, EditCheck),
    /**
     * Queues the edit as one batch (a job per image or prompt). Fails with `invalid-argument`
     * (details.errors, details.bad) and creates nothing when a row has a problem.
     */
    create: method(CreateEditsInput, BatchSummary),
  },
  queue: {
    state: method(NoInput, QueueState),
    pause: method(z.object({ reason: z.string().max(500).optional() }).prefault({}), Done),
    /** A budget pause's cap still reached: `conflict`, unless `overBudget` ("run anyway"). */
    resume: method(ResumeQueueInput, Done),
    setLimits: method(SetLimitsInput, Limits),
    cancelAll: method(NoInput, Canceled),
    retry: method(RetryInput, RetryReport),
  },
  jobs: {
    ids: method(JobIdsInput, IdPage),
    /** In the order asked; ids that no longer exist are left out. */
    byIds: method(ByIdsInput, z.array(JobSummary)),
    get: method(ById, JobDetail),
    attempts: method(AttemptsInput, pageOf(AttemptSummary)),
    cancel: method(Selection, Changed),
    /** Hold: the jobs stay queued and are skipped until released. */
    hold: method(Selection, Changed),
    release: method(Selection, Changed),
    move: method(MoveJobsInput, Changed),
    retry: method(RetryJobsInput, Changed),
    topUp: method(Selection, TopUpReport),
    /** Their failed downloads, from the stored link or bytes: never a generation request. */
    retryDownloads: method(Selection, RetryDownloadsReport),
    /** How many of them each bulk action would change (the action table). */
    actionable: method(Selection, Actionable),
  },
  images: {
    page: method(ImagePageInput, pageOf(ImageSummary)),
    ids: method(ImageIdsInput, IdPage),
    byIds: method(ByIdsInput, z.array(ImageSummary)),
    count: method(z.object({ query: ImageQuery.prefault({}) }), z.object({ total: z.number() })),
    get: method(ById, ImageDetail),
    setFavorite: method(FavoriteInput, Changed),
    /** From the stored link or bytes: never a generation request. */
    retryDownloads: method(RetryDownloadsInput, RetryDownloadsReport),
    /** The sizes and models the written images have, with counts: the gallery's filters. */
    facets: method(NoInput, ImageFacets),
    /** Runs of the list by batch or day, in its order: headers without the images. */
    groups: method(ImageGroupsInput, z.object({ groups: z.array(ImageGroup) })),
    /** Files to the system trash (outright where there is none), then their records. */
    delete: method(DeleteImagesInput, DeleteImagesReport),
    reveal: method(ById, Done),
    openWithViewer: method(ById, Done),
  },
  exports: {
    /** A zip of the images and a CSV manifest, written in the background (`export.progress`). */
    start: method(ExportInput, ExportStarted),
    get: method(z.object({ id: z.string() }), ExportProgress),
    cancel: method(z.object({ id: z.string() }), Done),
  },
  prompts: {
    /**
     * Prompts on a theme from a text model, through the service (the key never reaches the
     * client), streamed as `prompts.progress` events; `get` reads the whole list so far.
     */
    generate: method(ThemeInput, PromptHelp),
    /** One full prompt made of a short one. */
    expand: method(ExpandInput, PromptHelp),
    /** Variations of a prompt. */
    vary: method(VaryInput, PromptHelp),
    get: method(z.object({ id: z.string() }), PromptHelp),
    /** Stops the request to the gateway at once; the prompts that arrived are kept. */
    cancel: method(z.object({ id: z.string() }), Done),
  },
  spend: {
    /** Spent today, over the last days, by model and gateway (and a batch's), and the caps. */
    summary: method(SpendSummaryInput, SpendSummary),
  },
  settings: {
    get: method(NoInput, SettingsView),
    update: method(SettingsPatch, SettingsView),
  },
  key: {
    /** A profile's key (its own, or the shared one it falls back to), or the shared key. */
    status: method(KeyScope, KeyStatus),
    set: method(KeyInput, KeyStatus),
    clear: method(KeyScope, KeyStatus),
    /** One cheap call to the gateway (/v1/models where offered); the models it does not know. */
    test: method(ConnectionInput, ConnectionTest),
  },
  models: {
    catalogue: method(NoInput, Catalogue),
    saveUserEntries: method(SaveModelsInput, Catalogue),
    /** Adds models from a small form's fields (the unknown ones key.test found, say). */
    addEntries: method(AddModelsInput, Catalogue),
  },
  library: {
    info: method(NoInput, LibraryInfo),
    /** A folder that already holds the library's files (moved there by the person). */
    setLocation: method(SetLibraryInput, LibraryInfo),
    /**
     * Moves the library's files to a new, empty folder, in the background (`library.move`
     * events): copied first, the library switched once all are there, then the old removed.
     */
    move: method(SetLibraryInput, LibraryMove),
    /** The move under way, the last one, or one interrupted; null when there was none. */
    moveStatus: method(NoInput, LibraryMove.nullable()),
    /** Stops a move while it copies: what was copied is removed, the library stays. */
    cancelMove: method(NoInput, LibraryMove.nullable()),
    /** Carries on an interrupted move from where it stopped. */
    resumeMove: method(NoInput, LibraryMove),
    /** Undoes an interrupted move that was still copying: its copies go, the library stays. */
    rollbackMove: method(NoInput, LibraryMove),
    previewTemplate: method(TemplateInput, TemplatePreview),
  },
  app: {
    info: method(NoInput, AppInfo),
  },
  compose: {
    /** The draft Compose last saved, or null. */
    draft: method(NoInput, ComposeDraftRecord.nullable()),
    /** Saved as it is typed; refused past MAX_DRAFT_CHARS. */
    saveDraft: method(ComposeDraftRecord, Done),
  },
} as const;
