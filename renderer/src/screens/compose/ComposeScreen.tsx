import { useCallback, useMemo } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { toast } from 'sonner';
import type { ImageModelEntry, VideoModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { useCatalogue, useSettings } from '../../data/app-queries.ts';
import { errorMessage } from '../../data/error-message.ts';
import { plural } from '../../format.ts';
import { useSpendConfirm } from '../../views/SpendConfirm.tsx';
import { useRunBatch, useStartingModel } from './compose-actions.ts';
import { composePlan, type ComposePlan } from './compose-plan.ts';
import { composeUi } from './compose-state.ts';
import type { ComposeDraft } from './draft.ts';
import { estimate } from './estimate.ts';
import { EstimateView } from './EstimateView.tsx';
import { JobPreview } from './JobPreview.tsx';
import { MatrixPanel } from './MatrixPanel.tsx';
import { parseList } from './matrix.ts';
import { PromptHelpPanel } from './prompt-help/PromptHelpPanel.tsx';
import { promptHelpUi } from './prompt-help/prompt-help-state.ts';
import { describeModel } from './model-params.ts';
import { defaultSize } from '../../../../shared/gateway/params.ts';
import { PromptsPanel } from './PromptsPanel.tsx';
import { rowProblemText } from './row-problem-words.ts';
import { sourceOf } from './source.ts';
import { useBatchCheck, type CheckInput, type CheckState } from './use-batch-check.ts';
import './compose.css';
import './prompt-help/prompt-help.css';

/** Compose: prompts, templates and a matrix of parameters become one batch. */
export function ComposeScreen() {
  const draft = composeUi.useSelect((s) => s.draft);
  const edit = composeUi.useSelect((s) => s.edit);
  const ready = composeUi.useSelect((s) => s.ready);
  const batchName = composeUi.useSelect((s) => s.name);
  const setBatchName = composeUi.useSelect((s) => s.setName);
  const { data: catalogueData, error: catalogueFailure } = useCatalogue();
  const catalogue = catalogueData ?? null;
  const catalogueError = catalogueFailure ? errorMessage(catalogueFailure) : null;
  const settings = useSettings().data ?? null;
  const helpOpen = promptHelpUi.useSelect((s) => s.open);
  const spendConfirm = useSpendConfirm();
  const runBatch = useRunBatch(spendConfirm.ask);
  // while the spend question is open nothing is being sent yet: the Run bar says what waits
  const sending = runBatch.pending ? (spendConfirm.asking ? 'asking' : 'sending') : null;
  useStartingModel();

  const entries = useMemo(() => (catalogue ?? []).map((c) => c.entry), [catalogue]);
  const imageModels = useMemo(
    () => (catalogue ? entries.filter((e): e is ImageModelEntry => e.kind === 'image') : null),
    [catalogue, entries],
  );
  const videoModels = useMemo(
    () => (catalogue ? entries.filter((e): e is VideoModelEntry => e.kind === 'video') : null),
    [catalogue, entries],
  );
  const unit = draft.mode === 'video' && !draft.file ? 'video' : 'image';
  const planned = useMemo(() => composePlan(draft, entries), [draft, entries]);
  const input = useMemo(() => checkInputOf(draft, planned), [draft, planned]);
  const check = useBatchCheck(input);

  const imagesByModel = useMemo(() => {
    if (draft.file) return check.status === 'done' ? imagesOf(check.check.models) : null;
    return planned.plan ? planned.plan.imagesByModel() : null;
  }, [draft.file, check, planned.plan]);
  const cost = useMemo(
    () =>
      imagesByModel &&
      estimate(imagesByModel, {
        prices: settings?.prices ?? {},
        listPrice: (model) => planned.lookup(model).pricePerImage,
        currency: settings?.currency ?? null,
      }),
    [imagesByModel, settings, planned],
  );

  // what each model will get, beside its line of the estimate
  const gets = useMemo(
    () =>
      draft.file
        ? {}
        : Object.fromEntries(
            planned.perModel.map((p, i) => [
              p.model,
              describeModel(p, defaultSize(planned.entries[i]!)),
            ]),
          ),
    [draft.file, planned],
  );

  const reasons = useMemo(
    () => blockers(draft, planned, check, sending),
    [draft, planned, check, sending],
  );
  // a file with some bad rows: its valid ones can run on their own, leaving the bad out
  const validRows =
    draft.file && check.status === 'done' && check.check.bad > 0 ? check.check.jobs : 0;
  const run = useCallback(
    async (position: 'back' | 'front', skipBadRows = false) => {
      // (running the valid rows leaves the bad ones out: they no longer stop it)
      const blocked = skipBadRows
        ? blockers(draft, planned, check, sending, true).length > 0
        : reasons.length > 0;
      if (!input || blocked) {
        // the shortcut works from anywhere: say why nothing happened
        toast.warning('Not run yet', { description: reasons.join(' ') || undefined });
        return;
      }
      const name = batchName.trim();
      const spend = check.status === 'done' ? check.check.spend : null;
      await runBatch.run({
        input: {
          ...input(),
          position,
          ...(name ? { name } : {}),
          ...(skipBadRows ? { skipBadRows } : {}),
        },
        spend,
      });
    },
    [input, reasons, batchName, runBatch, check, draft, planned, sending],
  );
  const hotkey = { enableOnFormTags: true, preventDefault: true } as const;
  useHotkeys('mod+enter', () => void run('back'), hotkey, [run]);
  useHotkeys('mod+shift+enter', () => void run('front'), hotkey, [run]);

  const rowErrors = useMemo(
    () =>
      new Map(check.status === 'done' ? check.check.errors.map((e) => [e.line, e.message]) : []),
    [check],
  );
  const count = draft.file
    ? check.status === 'done'
      ? check.check.jobs
      : null
    : (planned.plan?.count ?? 0);

  const listed = problems(planned, check, draft.file?.name ?? null);
  const warnings = check.status === 'done' ? (check.check.warnings ?? []) : [];

  return (
    <div className="screen compose">
      <h1 className="visually-hidden">Compose</h1>
      {catalogueError && (
        <p className="notice notice-error" role="alert">
          The models could not be loaded: {catalogueError}
        </p>
      )}
      <div className={`compose-grid${helpOpen ? ' with-help' : ''}`}>
        <PromptsPanel
          draft={draft}
          edit={edit}
          expanded={planned.expanded}
          ready={ready}
          entries={entries}
        />
        {helpOpen && <PromptHelpPanel draft={draft} entries={entries} />}
        <MatrixPanel
          draft={draft}
          edit={edit}
          models={imageModels}
          videoModels={videoModels}
          fields={planned.fields}
          video={planned.video}
          entries={planned.entries}
          perModel={planned.perModel}
        />
        <section className="panel compose-result" aria-labelledby="preview-heading">
          <div className="compose-heading-row">
            <h2 id="preview-heading">Preview</h2>
            <p className="compose-count" aria-live="polite" aria-label="Job count">
              {count === null ? 'Checking…' : countText(count, imagesByModel, unit)}
            </p>
          </div>
          {planned.plan && planned.plan.count > 0 && (
            <JobPreview plan={planned.plan} rowErrors={rowErrors} />
          )}
          {draft.file && check.status === 'done' && check.check.errors.length === 0 && (
            <p className="muted">
              {draft.file.name}: every row is ready. The jobs are listed in the queue once it runs.
            </p>
          )}
          {!draft.file && !planned.plan && planned.expanded.prompts.length === 0 && (
            <p className="muted">The jobs appear here as you type.</p>
          )}
        </section>
      </div>
      <section className="panel compose-run" aria-label="Run">
        {/* in the sticky bar, beside Run: never scrolled under it, whatever the window's size */}
        {listed.length > 0 && (
          <ul className="compose-errors" aria-label="Problems">
            {listed.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        {warnings.length > 0 && (
          <ul className="compose-warnings" aria-label="What the gateway says">
            {warnings.map((w) => (
              <li key={w.model}>{w.message}</li>
            ))}
          </ul>
        )}
        {cost ? (
          <EstimateView estimate={cost} unit={unit} gets={gets} />
        ) : (
          <p className="muted">No estimate yet.</p>
        )}
        <div className="compose-run-actions">
          <input
            className="compose-name"
            aria-label="Batch name"
            value={batchName}
            placeholder="Batch name (optional)"
            onChange={(e) => setBatchName(e.target.value)}
          />
          {validRows > 0 && !sending && (
            <button
              type="button"
              className="compose-run-valid"
              onClick={() => void run('back', true)}
            >
              Run the {plural(validRows, 'valid row')}
            </button>
          )}
          <button
            type="button"
            className="ghost"
            disabled={reasons.length > 0}
            aria-describedby="run-blockers"
            onClick={() => void run('front')}
            title="Ctrl/⌘ Shift Enter"
          >
            Run at the front
          </button>
          <button
            type="button"
            disabled={reasons.length > 0}
            aria-describedby="run-blockers"
            onClick={() => void run('back')}
            title="Ctrl/⌘ Enter"
          >
            Run <kbd>Ctrl Enter</kbd>
          </button>
        </div>
        <ul id="run-blockers" className="compose-blockers" aria-label="Why Run is disabled">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </section>
      {spendConfirm.dialog}
    </div>
  );
}

/** What the service is asked to check and, unchanged, to create. */
function checkInputOf(draft: ComposeDraft, planned: ComposePlan): (() => CheckInput) | null {
  if (draft.file) {
    const file = draft.file;
    const video = draft.mode === 'video';
    // the rows that name no model, size or duration take the first chosen here (an image
    // model's own first size)
    const model = (video ? draft.videoModels : draft.models)[0];
    const size = video ? parseList(draft.videoSizes)[0] : planned.perModel[0]?.sizes[0];
    const seconds = video ? parseList(draft.seconds)[0] : undefined;
    return () => ({
      source: { kind: 'text', fileName: file.name, text: file.text },
      defaults: {
        ...(model ? { model } : {}),
        ...(size ? { size } : {}),
        ...(seconds ? { seconds } : {}),
      },
    });
  }
  const { plan } = planned;
  if (!plan || plan.count === 0 || planned.inputErrors.length || planned.refusals.length) {
    return null;
  }
  return () => ({ source: sourceOf(plan, planned.row) });
}

function imagesOf(models: Record<string, { images: number }>): Record<string, number> {
  return Object.fromEntries(Object.entries(models).map(([m, { images }]) => [m, images]));
}

function countText(
  jobs: number,
  images: Record<string, number> | null,
  unit: 'image' | 'video',
): string {
  const total = images ? Object.values(images).reduce((a, b) => a + b, 0) : jobs;
  const plural = (n: number, word: string) =>
    `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(jobs, 'job')} · ${plural(total, unit)}`;
}

/** What stops the batch, besides the template errors shown under the prompts. */
function problems(planned: ComposePlan, check: CheckState, fileName: string | null): string[] {
  const list = [...planned.inputErrors, ...planned.refusals];
  if (check.status === 'failed')
    list.push(`The service could not check the batch: ${check.message}`);
  if (check.status === 'done') {
    // every bad row the service reported (it reports up to a thousand), in the window's words
    for (const e of check.check.errors) {
      const text = rowProblemText(e, fileName);
      list.push(e.line > 0 ? `${whereOf(planned)} ${e.line}: ${text}` : text);
    }
    const more = check.check.bad - check.check.errors.filter((e) => e.line > 0).length;
    if (more > 0) list.push(`…and ${plural(more, 'more bad row')}`);
  }
  return list;
}

const whereOf = (planned: ComposePlan) => (planned.plan ? 'Job' : 'Line');

/** Why Run is disabled, in words; empty when it is not. */
function blockers(
  draft: ComposeDraft,
  planned: ComposePlan,
  check: CheckState,
  sending: 'asking' | 'sending' | null,
  skipBadRows = false,
): string[] {
  const reasons: string[] = [];
  if (sending === 'asking') return ['Waiting for your answer about the spend…'];
  if (sending === 'sending') return ['Sending the batch…'];
  if (!draft.file) {
    if (planned.expanded.errors.length > 0) {
      reasons.push(
        `Fix the template (${planned.expanded.errors.length} error${planned.expanded.errors.length === 1 ? '' : 's'}).`,
      );
    } else if (planned.expanded.count === 0) reasons.push('Type a prompt or open a prompt file.');
    const chosen = draft.mode === 'video' ? draft.videoModels : draft.models;
    if (chosen.length === 0)
      reasons.push(`Choose ${draft.mode === 'video' ? 'a video' : 'a'} model.`);
  }
  const inputProblems = planned.inputErrors.filter((e) => e !== 'Choose at least one model.');
  if (inputProblems.length + planned.refusals.length > 0) {
    reasons.push('Fix the problems listed above.');
  }
  if (reasons.length > 0) return reasons;
  if (check.status === 'checking') reasons.push('Checking with the service…');
  if (check.status === 'failed') reasons.push('The service could not check the batch.');
  if (check.status === 'done' && check.check.bad > 0 && !skipBadRows) {
    reasons.push(
      `${check.check.bad.toLocaleString('en-US')} row${check.check.bad === 1 ? '' : 's'} the service refuses.`,
    );
  }
  // (a file whose every row is bad holds prompts: the rows above say what is wrong)
  if (check.status === 'done' && check.check.jobs === 0 && check.check.bad === 0) {
    reasons.push('The file holds no prompt.');
  }
  return reasons;
}
