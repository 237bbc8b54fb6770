import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { promptLines } from '../../../shared/edits/edit-rows.ts';
import { plural } from '../../../shared/text/plural.ts';
import type { Batch } from '../store/rows.ts';
import type { Store } from '../store/store.ts';
import { transact } from '../store/transaction.ts';
import { planEdits, type EditCheck, type EditIssue, type EditSpec } from './edit-plan.ts';
import { EditInputFiles } from './input-files.ts';

/** The edit has problems (listed in `check`); nothing was created. */
export class EditCheckError extends Error {
  readonly check: EditCheck;

  constructor(check: EditCheck) {
    super(
      `The edit has ${plural(check.bad, 'problem')}; nothing was queued. Fix ` +
        `${check.bad === 1 ? 'it' : 'them'} and try again:\n` +
        describeIssues(check.errors, check.bad),
    );
    this.name = 'EditCheckError';
    this.check = check;
  }
}

/** Issues listed one a line, each with the row it is about. */
export function describeIssues(issues: readonly EditIssue[], total = issues.length): string {
  const lines = issues.slice(0, 20).map((issue) => `  ${issue.label}: ${issue.message}`);
  if (total > lines.length) lines.push(`  … and ${total - lines.length} more`);
  return lines.join('\n');
}

export interface CreateEditsOptions {
  catalogue: Catalogue;
  /** The batch's name; by default the prompt, or what is edited. */
  name?: string | undefined;
  paused?: boolean | undefined;
  now?: number;
  /** After the check passed, before anything is kept: may refuse (throw) the edit as checked. */
  beforeCreate?: (check: EditCheck) => void;
}

/**
 * Checks the edit (see planEdits), keeps its pictures and masks in the data folder, then
 * creates one batch of edit jobs in one transaction: queued like any batch, so the queue's
 * every rule applies. Throws EditCheckError and creates nothing when a row has a problem.
 */
export async function createEdits(
  store: Store,
  spec: EditSpec,
  options: CreateEditsOptions,
): Promise<{ batch: Batch; check: EditCheck }> {
  const { check, planned } = await planEdits(spec, {
    catalogue: options.catalogue,
    inputs: EditInputFiles.of(store),
  });
  if (check.bad > 0 || !planned) throw new EditCheckError(check);
  options.beforeCreate?.(check);
  const now = options.now ?? Date.now();
  // (immediate: the batch's first statement reads, and a read cannot become a write later)
  const batch = transact(
    store.db,
    () => {
      const created = store.batches.create(
        {
          name: options.name ?? defaultName(spec),
          source: spec.pictures.length === 1 ? spec.pictures[0]!.label : null,
          paused: options.paused ?? false,
          settings: { defaults: defaultsOf(spec), edit: editSettings(spec) },
        },
        planned.map(({ job }) => job),
        now,
      );
      store.edits.addToBatch(
        created.id,
        planned.map(({ edit }) => edit),
      );
      return created;
    },
    'immediate',
  );
  return { batch, check };
}

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/** "Edit: <the prompt>" for one prompt, "Edits of <the picture>" for several. */
function defaultName(spec: EditSpec): string {
  const lines = promptLines(spec.prompts);
  if (lines.length === 1) return cut(`Edit: ${lines[0]!.prompt}`, 80);
  return cut(`Edits of ${spec.pictures[0]?.name ?? 'a picture'}`, 80);
}

/** What the batch's rows were made with (a batch's detail shows them). */
function defaultsOf(spec: EditSpec): Record<string, unknown> {
  const defaults: Record<string, unknown> = { model: spec.model };
  for (const key of ['n', 'size', 'quality', 'output_format', 'seed', 'response_format'] as const) {
    if (spec[key] !== undefined) defaults[key] = spec[key];
  }
  return defaults;
}

function editSettings(spec: EditSpec): Record<string, unknown> {
  return {
    pictures: spec.pictures.length,
    prompts: promptLines(spec.prompts).length,
    mask: spec.mask !== null,
    keepOutsideMask: spec.keepOutsideMask && spec.mask !== null,
  };
}
