import type { Catalogue, ImageModelEntry } from '../../../shared/gateway/catalogue.ts';
import { editPairs, promptLines, type PromptLine } from '../../../shared/edits/edit-rows.ts';
import { planEdit } from '../gateway/build/plan.ts';
import { DEFAULT_MAX_PROMPT_CHARS } from '../import/import-batch.ts';
import type { JobParams } from '../engine/job-request.ts';
import type { NewJobEdit } from '../store/edit-repository.ts';
import type { NewJob } from '../store/job-repository.ts';
import type { EditInputFiles } from './input-files.ts';
import { maskFit, sizeText, type Size } from './mask-pixels.ts';
import {
  maskFor,
  PictureProblem,
  preparePicture,
  readMask,
  type MaskSource,
  type PreparedMask,
} from './pictures.ts';

/** A picture to edit, however it was named: a gallery image, or a file the CLI was given. */
export interface EditPicture {
  /** What messages call it: `image 42 (Foxes/0001-fox.png)`, or the file's path. */
  label: string;
  /** Its file's name, for naming what is made of it. */
  name: string;
  /** The gallery image it is; null for a file from outside the library. */
  imageId: number | null;
  /** Its bytes; throws PictureProblem when they cannot be had. */
  read(): Promise<Buffer>;
}

/** Everything an edit is asked with, its pictures and mask not yet read. */
export interface EditSpec {
  pictures: readonly EditPicture[];
  /** One prompt per line. */
  prompts: string;
  mask: { label: string; read(): Promise<Buffer> } | null;
  model: string;
  n?: number | undefined;
  size?: string | undefined;
  quality?: string | undefined;
  output_format?: 'png' | 'jpeg' | 'webp' | undefined;
  negative_prompt?: string | undefined;
  seed?: number | undefined;
  response_format?: 'url' | 'b64_json' | undefined;
  /** Paste each result back over its picture outside the mask. */
  keepOutsideMask: boolean;
  /** The longest prompt accepted (default 32,000 characters); the model's own limit also applies. */
  maxPromptChars?: number | undefined;
}

/** A problem (or a warning) about one row: a picture, a prompt, the mask, or the settings. */
export interface EditIssue {
  /** Names the row for a person. */
  label: string;
  /** The gallery image it is about. */
  imageId?: number;
  /** The prompt's line it is about. */
  line?: number;
  message: string;
}

export interface EditCheck {
  /** Jobs the edit makes (one per picture and prompt that passed). */
  jobs: number;
  /** Images it asks for (the sum of n). */
  images: number;
  /** Problems that stop it, capped; `bad` counts them all. */
  errors: EditIssue[];
  bad: number;
  /** What it will do that the person may not expect (a mask stretched to another shape). */
  warnings: EditIssue[];
  /** Jobs and images per model, for the estimate. */
  models: Record<string, { jobs: number; images: number }>;
}

/** One job of the edit, ready to insert, its inputs kept in the data folder. */
export interface PlannedEdit {
  job: NewJob;
  edit: NewJobEdit;
}

/** Problems listed; past this only the count grows (as an import does). */
const MAX_REPORTED = 1_000;
/** Pictures read and encoded at once. */
const PICTURES_AT_ONCE = 2;

const SETTINGS = 'the settings';

/**
 * Checks an edit as the run would send it, per row (each picture, each prompt, the mask, the
 * settings), by the gateway client's own validation and the model's limits: formats, file
 * size, square pictures, mask transparency and fit, prompt length. With `inputs`, the
 * pictures and masks are also kept in the data folder and the jobs returned; without, only
 * the check. Nothing is sent.
 */
export async function planEdits(
  spec: EditSpec,
  options: { catalogue: Catalogue; inputs?: EditInputFiles },
): Promise<{ check: EditCheck; planned: PlannedEdit[] | null }> {
  const issues = new Issues();
  const lines = promptLines(spec.prompts);
  const shape = editPairs(spec.pictures.length, lines.length);
  if (!shape.ok) issues.error({ label: 'the request', message: shape.message });
  const entry = editModel(spec.model, options.catalogue, issues);
  if (entry) settingsProblems(spec, entry, issues);
  const badLines = promptProblems(lines, spec, entry, issues);
  const keepOutsideMask = spec.keepOutsideMask && spec.mask !== null;
  if (spec.keepOutsideMask && !spec.mask) {
    issues.warn({
      label: SETTINGS,
      message: 'There is no mask, so the whole picture may change: nothing is kept from it.',
    });
  }
  const mask = spec.mask ? await readMaskOf(spec.mask, issues) : null;

  const masks = new Map<string, Promise<PreparedMask>>();
  const maskOf = (size: Size) => {
    const key = sizeText(size);
    let prepared = masks.get(key);
    if (!prepared) {
      prepared = maskFor(mask!, size).then(async (made) => {
        await options.inputs?.put(made.png, made.sha256);
        return made;
      });
      masks.set(key, prepared);
    }
    return prepared;
  };
  // (each picture's issues kept apart, then listed in the pictures' order, however they finished)
  const checked = await mapLimit(spec.pictures, PICTURES_AT_ONCE, async (picture) => {
    const own = new Issues();
    const edit = await checkPicture(picture, {
      entry,
      mask,
      maskOf,
      issues: own,
      inputs: options.inputs,
    });
    return { edit, own };
  });
  for (const { own } of checked) issues.add(own);
  const edits = checked.map(({ edit }) => edit);

  const n = spec.n ?? 1;
  const check: EditCheck = { jobs: 0, images: 0, errors: [], bad: 0, warnings: [], models: {} };
  const planned: PlannedEdit[] = [];
  if (shape.ok && entry) {
    for (const pair of shape.pairs) {
      const line = lines[pair.prompt]!;
      const edit = edits[pair.picture];
      if (!edit || badLines.has(line.line)) continue;
      check.jobs++;
      check.images += n;
      planned.push({
        job: jobOf(spec, line),
        edit: {
          ...edit,
          sourceLabel: spec.pictures[pair.picture]!.label,
          sourceImageId: spec.pictures[pair.picture]!.imageId,
          keepOutsideMask: keepOutsideMask && edit.maskSha256 !== null,
        },
      });
    }
    if (check.jobs > 0) check.models[spec.model] = { jobs: check.jobs, images: check.images };
  }
  Object.assign(check, issues.report());
  return { check, planned: check.bad === 0 && options.inputs ? planned : null };
}

/** The model's entry when it can edit; otherwise an error naming the models that can. */
function editModel(model: string, catalogue: Catalogue, issues: Issues): ImageModelEntry | null {
  const entry = catalogue.lookup(model);
  if (entry.kind === 'image' && entry.edit !== 'none') return entry;
  const editors = catalogue
    .entries()
    .filter((each) => each.kind === 'image' && each.edit !== 'none')
    .map((each) => each.id);
  issues.error({
    label: 'the model',
    message: `${model} cannot edit pictures; choose one that can: ${editors.join(', ')}.`,
  });
  return null;
}

/** What the gateway client would refuse whatever the prompt: n, size, quality, a seed… */
function settingsProblems(spec: EditSpec, entry: ImageModelEntry, issues: Issues): void {
  const standIn = { bytes: new Uint8Array(0), filename: 'image.png', mimeType: 'image/png' };
  const plan = planEdit(
    {
      ...requestFields(spec),
      prompt: 'x',
      image: standIn,
      ...(spec.mask ? { mask: standIn } : {}),
    },
    { lookup: () => entry, knows: () => true, entries: () => [entry] },
  );
  if (!plan.ok) for (const message of plan.problems) issues.error({ label: SETTINGS, message });
}

/** The lines whose prompt is too long for Atelier or the model; each is an error. */
function promptProblems(
  lines: readonly PromptLine[],
  spec: EditSpec,
  entry: ImageModelEntry | null,
  issues: Issues,
): Set<number> {
  const atelierMax = spec.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS;
  const modelMax = entry?.maxPromptChars ?? null;
  const max = modelMax === null ? atelierMax : Math.min(atelierMax, modelMax);
  const bad = new Set<number>();
  for (const { line, prompt } of lines) {
    const chars = [...prompt].length;
    if (chars <= max) continue;
    bad.add(line);
    const whose =
      modelMax !== null && modelMax <= atelierMax ? `${entry!.id} takes` : 'Atelier takes';
    issues.error({
      label: `prompt on line ${line}`,
      line,
      message: `The prompt is ${chars} characters long; ${whose} at most ${max}. Shorten it.`,
    });
  }
  return bad;
}

async function readMaskOf(
  mask: NonNullable<EditSpec['mask']>,
  issues: Issues,
): Promise<MaskSource | null> {
  try {
    return await readMask(await mask.read());
  } catch (error) {
    if (!(error instanceof PictureProblem)) throw error;
    issues.error({ label: mask.label, message: error.message });
    return null;
  }
}

type PictureEdit = Omit<NewJobEdit, 'sourceLabel' | 'sourceImageId' | 'keepOutsideMask'>;

/** One picture: readable, within the model's limits, its mask fitting; kept when planning. */
async function checkPicture(
  picture: EditPicture,
  context: {
    entry: ImageModelEntry | null;
    mask: MaskSource | null;
    maskOf: (size: Size) => Promise<PreparedMask>;
    issues: Issues;
    inputs: EditInputFiles | undefined;
  },
): Promise<PictureEdit | null> {
  const { entry, mask, issues } = context;
  const about = {
    label: picture.label,
    ...(picture.imageId !== null ? { imageId: picture.imageId } : {}),
  };
  const problem = (message: string) => issues.error({ ...about, message });
  let prepared;
  try {
    prepared = await preparePicture(await picture.read());
  } catch (error) {
    if (!(error instanceof PictureProblem)) throw error;
    problem(error.message);
    return null;
  }
  const size = { width: prepared.width, height: prepared.height };
  let ok = true;
  if (entry?.editSquare && size.width !== size.height) {
    ok = false;
    problem(
      `${entry.id} edits square pictures only; this one is ${sizeText(size)}. Crop it square, or choose another model.`,
    );
  }
  const maxBytes = entry?.editMaxBytes ?? null;
  if (maxBytes !== null && prepared.png.length > maxBytes) {
    ok = false;
    problem(
      `As a PNG this picture is ${megabytes(prepared.png.length)}; ${entry!.id} takes files up to ${megabytes(maxBytes)}. Use a smaller picture.`,
    );
  }
  let maskSha256: string | null = null;
  if (mask) {
    const fit = maskFit(mask, size);
    if (fit.kind === 'stretched') {
      issues.warn({
        ...about,
        message: `The mask is ${fit.mask} and the picture ${fit.picture}: the mask is stretched to fit, so what it covers moves.`,
      });
    }
    const made = await context.maskOf(size);
    if (made.edited === 0) {
      ok = false;
      problem('Scaled to this picture, the mask leaves no pixel to change.');
    } else if (maxBytes !== null && made.png.length > maxBytes) {
      ok = false;
      problem(
        `Its mask is ${megabytes(made.png.length)}; ${entry!.id} takes files up to ${megabytes(maxBytes)}.`,
      );
    }
    maskSha256 = made.sha256;
  }
  if (!ok) return null;
  await context.inputs?.put(prepared.png, prepared.sha256);
  return { imageSha256: prepared.sha256, width: size.width, height: size.height, maskSha256 };
}

/** The request fields besides the prompt and pictures, as the engine will send them. */
function requestFields(spec: EditSpec) {
  const fields: { model: string } & Record<string, unknown> = { model: spec.model };
  for (const key of [
    'n',
    'size',
    'quality',
    'output_format',
    'negative_prompt',
    'seed',
    'response_format',
  ] as const) {
    if (spec[key] !== undefined) fields[key] = spec[key];
  }
  return fields;
}

function jobOf(spec: EditSpec, line: PromptLine): NewJob {
  const params: JobParams = {};
  if (spec.quality) params.quality = spec.quality;
  if (spec.output_format) params.output_format = spec.output_format;
  if (spec.negative_prompt) params.negative_prompt = spec.negative_prompt;
  if (spec.response_format) params.response_format = spec.response_format;
  return {
    prompt: line.prompt,
    model: spec.model,
    kind: 'image',
    size: spec.size ?? null,
    n: spec.n ?? 1,
    seed: spec.seed ?? null,
    params,
  };
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Errors and warnings as they come, capped for the report, counted in full. */
class Issues {
  private readonly errors: EditIssue[] = [];
  private readonly warnings: EditIssue[] = [];
  private bad = 0;

  error(issue: EditIssue): void {
    this.bad++;
    if (this.errors.length < MAX_REPORTED) this.errors.push(issue);
  }

  warn(issue: EditIssue): void {
    if (this.warnings.length < MAX_REPORTED) this.warnings.push(issue);
  }

  /** Another list's issues, after these. */
  add(other: Issues): void {
    for (const issue of other.errors) this.error(issue);
    this.bad += other.bad - other.errors.length;
    for (const issue of other.warnings) this.warn(issue);
  }

  report() {
    return { errors: this.errors, bad: this.bad, warnings: this.warnings };
  }
}

/** `fn` over the items with at most `limit` running at once; results in the items' order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
