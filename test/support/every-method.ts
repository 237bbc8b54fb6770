import type { Result } from '../../shared/api/errors.ts';
import type { Area, MethodName } from '../../shared/api/types.ts';

/** What the methods called so far answered, by `area.method`. */
export type Answers = Record<string, unknown>;

/**
 * One input for every method of the contract, typed by it: a new method fails the typecheck.
 * An input may be a function of the answers so far (an id a previous call made).
 */
export type EveryMethod = { [A in Area]: { [M in MethodName<A>]: unknown } };

/**
 * Inputs for a data folder holding one finished batch (its first job and image). In this
 * order: exports before the image is deleted, the batch last.
 */
export function everyMethod(ids: {
  batchId: number;
  jobId: number;
  imageId: number;
  libraryDir: string;
}): EveryMethod {
  return {
    queue: {
      state: {},
      pause: { reason: 'lunch' },
      resume: {},
      setLimits: { concurrency: 4 },
      cancelAll: {},
      retry: { failed: true, downloads: true },
    },
    jobs: {
      ids: { batchId: ids.batchId },
      byIds: { ids: [ids.jobId] },
      get: { id: ids.jobId },
      attempts: { jobId: ids.jobId },
      cancel: { ids: [ids.jobId] },
      hold: { ids: [ids.jobId] },
      release: { ids: [ids.jobId] },
      move: { ids: [ids.jobId], position: 'back' },
      retry: { ids: [ids.jobId] },
      topUp: { ids: [ids.jobId] },
      retryDownloads: { ids: [ids.jobId] },
      actionable: { ids: [ids.jobId] },
    },
    exports: {
      start: { source: { ids: [ids.imageId] } },
      // the export the line above started
      get: (done: Answers) => ({ id: (done['exports.start'] as { id: string }).id }),
      cancel: (done: Answers) => ({ id: (done['exports.start'] as { id: string }).id }),
    },
    edits: {
      check: { images: [ids.imageId], prompts: 'make it blue', model: 'flux-schnell' },
      create: {
        images: [ids.imageId],
        prompts: 'make it blue',
        model: 'flux-schnell',
        paused: true,
      },
    },
    images: {
      page: {},
      ids: {},
      byIds: { ids: [ids.imageId] },
      count: { query: { text: 'fox' } },
      get: { id: ids.imageId },
      setFavorite: { ids: [ids.imageId], favorite: true },
      retryDownloads: { ids: [ids.imageId] },
      facets: {},
      groups: { by: 'day' },
      reveal: { id: ids.imageId },
      openWithViewer: { id: ids.imageId },
      delete: { ids: [ids.imageId] },
    },
    prompts: {
      generate: { theme: 'lighthouses', count: 2, model: 'gpt-4o-mini' },
      expand: { prompt: 'a fox', model: 'gpt-4o-mini' },
      vary: { prompt: 'a fox in the snow', count: 2, style: 'tags', model: 'gpt-4o-mini' },
      // the request the first line started
      get: (done: Answers) => ({ id: (done['prompts.generate'] as { id: string }).id }),
      cancel: (done: Answers) => ({ id: (done['prompts.generate'] as { id: string }).id }),
    },
    spend: { summary: { days: 7, batchId: ids.batchId } },
    settings: { get: {}, update: { theme: 'dark' } },
    key: { status: {}, set: { key: 'sk-test-0123456789' }, clear: {}, test: {} },
    models: {
      catalogue: {},
      saveUserEntries: { entries: [] },
      addEntries: { entries: [{ kind: 'image', id: 'my-sdxl', sizes: ['1024x1024'] }] },
    },
    library: {
      info: {},
      setLocation: { dir: ids.libraryDir },
      previewTemplate: { template: '{batch}/{index}.{ext}' },
      move: { dir: `${ids.libraryDir}-moved` },
      moveStatus: {},
      cancelMove: {},
      // (no move was cut off here: refused, as `conflict`)
      resumeMove: {},
      rollbackMove: {},
    },
    app: { info: {} },
    compose: { draft: {}, saveDraft: { draft: { text: 'a fox' }, name: '' } },
    batches: {
      list: {},
      get: { id: ids.batchId },
      check: {
        source: { kind: 'rows', rows: [{ prompt: 'x' }] },
        defaults: { model: 'flux-schnell' },
      },
      create: {
        source: { kind: 'rows', rows: [{ prompt: 'y', model: 'flux-schnell' }] },
        paused: true,
      },
      rename: { id: ids.batchId, name: 'renamed' },
      move: { id: ids.batchId, position: 'front' },
      pause: { id: ids.batchId },
      resume: { id: ids.batchId },
      cancel: { id: ids.batchId },
      delete: { id: ids.batchId },
    },
  };
}

/**
 * Calls each in turn; returns what failed (only `unsupported` is allowed, for desktop-only
 * actions, and `conflict` for resuming or rolling back a library move none was cut off).
 */
export async function callEveryMethod(
  calls: EveryMethod,
  call: (area: string, method: string, input: unknown) => Promise<Result<unknown>>,
): Promise<string[]> {
  const failures: string[] = [];
  const answers: Answers = {};
  for (const [area, methods] of Object.entries(calls)) {
    for (const [method, input] of Object.entries(methods as Record<string, unknown>)) {
      const given =
        typeof input === 'function' ? (input as (a: Answers) => unknown)(answers) : input;
      const result = await call(area, method, given);
      if (result.ok) answers[`${area}.${method}`] = result.value;
      const allowed =
        method === 'reveal' || method === 'openWithViewer'
          ? 'unsupported'
          : method === 'resumeMove' || method === 'rollbackMove'
            ? 'conflict'
            : null;
      if (!result.ok && result.error.code !== allowed) {
        failures.push(`${area}.${method}: ${result.error.code} ${result.error.message}`);
      }
    }
  }
  return failures;
}
