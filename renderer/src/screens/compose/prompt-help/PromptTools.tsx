import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { ApiErrorCode } from '../../../../../shared/api/errors.ts';
import type { ModelEntry } from '../../../../../shared/gateway/catalogue.ts';
import { plural } from '../../../format.ts';
import { composeUi } from '../compose-state.ts';
import type { ComposeDraft } from '../draft.ts';
import { helpErrorText, parseCount } from './help-error.ts';
import { targetOf } from './models.ts';
import { useAskPromptHelp, useCancelPromptHelp } from './prompt-help-actions.ts';
import { usePromptHelp } from './prompt-help-queries.ts';
import { promptHelpUi, type Transform } from './prompt-help-state.ts';
import { placeResult, promptAtCaret } from './prompt-text.ts';

interface Props {
  draft: ComposeDraft;
  entries: readonly ModelEntry[];
  /** Where the caret stands in the prompts box. */
  caret: number;
}

const where = (t: Transform, split: ComposeDraft['split']) =>
  `${split === 'line' ? 'line' : 'the prompt on line'} ${t.source.line}`;

/**
 * Prompt help on the prompts already in the box: expand the one at the caret into a full
 * prompt, or add variations of it after it. The answer is placed when it is complete, and
 * Undo brings the text before it back.
 */
export function PromptTools({ draft, entries, caret }: Props) {
  const store = promptHelpUi.useStoreApi();
  const open = promptHelpUi.useSelect((s) => s.open);
  const model = promptHelpUi.useSelect((s) => s.model);
  const style = promptHelpUi.useSelect((s) => s.style);
  const variations = promptHelpUi.useSelect((s) => s.variations);
  const transform = promptHelpUi.useSelect((s) => s.transform);
  const set = promptHelpUi.useSelect((s) => s.set);
  const composeStore = composeUi.useStoreApi();
  const replaced = composeUi.useSelect((s) => s.replaced);
  const undo = composeUi.useSelect((s) => s.undo);
  const help = usePromptHelp(transform?.requestId ?? null);
  const ask = useAskPromptHelp();
  const cancel = useCancelPromptHelp();
  const [error, setError] = useState<{ code: ApiErrorCode | null; message: string } | null>(null);

  const block = promptAtCaret(draft.text, caret, draft.split);
  const howMany = parseCount(variations, 20);
  const running = transform !== null && help?.state !== 'failed' && help?.state !== 'canceled';

  // the answer, once complete, goes into the box (the draft as it is now, with Undo)
  useEffect(() => {
    if (!transform || !help || help.id !== transform.requestId || help.state === 'running') return;
    const { draft: now, revise, undo: undoIt } = composeStore.getState();
    store.getState().setTransform(null);
    if (help.state === 'failed') return setError(help.error);
    if (help.state === 'canceled') return;
    const results = help.prompts.map((p) => p.text);
    if (results.length === 0) {
      return setError({ code: null, message: `${help.model} wrote nothing usable: ask again.` });
    }
    const placed = placeResult(now.text, transform.source, transform.kind, results, now.split);
    const what =
      transform.kind === 'expand'
        ? `expand ${where(transform, now.split)}`
        : `${plural(results.length, 'variation')} of ${where(transform, now.split)}`;
    revise({ text: placed.text }, what);
    const cut = help.prompts.some((p) => p.note);
    toast.success(
      transform.kind === 'expand'
        ? `Expanded ${where(transform, now.split)}`
        : `${plural(results.length, 'variation')} added after ${where(transform, now.split)}`,
      {
        description:
          [
            placed.placed === 'appended'
              ? 'The prompt was changed meanwhile: the result is at the end.'
              : null,
            cut ? 'Cut to fit the model’s prompt limit.' : null,
          ]
            .filter(Boolean)
            .join(' ') || undefined,
        action: { label: 'Undo', onClick: () => undoIt() },
      },
    );
  }, [transform, help, store, composeStore]);

  async function start(kind: 'expand' | 'vary') {
    if (!block) return;
    setError(null);
    const target = targetOf(draft, entries);
    const common = {
      prompt: block.text,
      style,
      ...(model ? { model } : {}),
      ...(target ? { targetModel: target.model } : {}),
    };
    const result = await ask.attempt(
      kind === 'expand'
        ? { task: 'expand', input: common }
        : { task: 'vary', input: { ...common, count: howMany ?? 3 } },
    );
    if (!result.ok) return setError(result);
    store.getState().setTransform({ kind, requestId: result.value.id, source: block });
  }

  const disabledWhy = !block
    ? 'Put the cursor in a prompt to expand it or vary it.'
    : block.text.length > 32_000
      ? 'This prompt is too long to send for help.'
      : null;
  const idle = !running;

  return (
    <div className="prompt-tools" role="group" aria-label="Prompt tools">
      <button
        type="button"
        className="ghost"
        aria-expanded={open}
        onClick={() => set({ open: !open })}
      >
        <span aria-hidden="true">✦ </span>Ideas from a theme
      </button>
      <span className="prompt-tools-sep" aria-hidden="true" />
      {idle ? (
        <>
          <button
            type="button"
            className="ghost"
            disabled={Boolean(disabledWhy) || ask.disabled}
            aria-describedby="prompt-tools-target"
            onClick={() => void start('expand')}
          >
            Expand
          </button>
          {/* read as one: "3 Variations" */}
          <input
            className="prompt-tools-count"
            type="number"
            min={1}
            max={20}
            aria-label="How many variations"
            aria-invalid={howMany === null}
            value={variations}
            onChange={(e) => set({ variations: e.target.value })}
          />
          <button
            type="button"
            className="ghost"
            disabled={Boolean(disabledWhy) || howMany === null || ask.disabled}
            aria-describedby="prompt-tools-target"
            onClick={() => void start('vary')}
          >
            Variations
          </button>
          <span id="prompt-tools-target" className="prompt-tools-target muted">
            {disabledWhy ??
              `${draft.split === 'line' ? 'Line' : 'Prompt at line'} ${block!.line}: ${block!.text}`}
          </span>
        </>
      ) : (
        <>
          <span className="prompt-tools-running" role="status">
            {transform.kind === 'expand' ? 'Expanding' : 'Writing variations of'}{' '}
            {where(transform, draft.split)}…
            {help && help.state === 'running' && (
              <span className="muted">
                {' '}
                {transform.kind === 'vary'
                  ? `${help.prompts.length} of ${help.asked}`
                  : help.partial.slice(-80)}
              </span>
            )}
          </span>
          <button
            type="button"
            className="ghost"
            disabled={cancel.disabled || !help}
            onClick={() => help && void cancel.run(help.id)}
          >
            Cancel
          </button>
        </>
      )}
      {replaced?.what && (
        <button type="button" className="ghost prompt-tools-undo" onClick={undo}>
          Undo {replaced.what}
        </button>
      )}
      {error && (
        <p className="notice notice-error prompt-tools-error" role="alert">
          {helpErrorText(error)}
          <button
            type="button"
            className="ghost small"
            aria-label="Dismiss the error"
            onClick={() => setError(null)}
          >
            ✕
          </button>
        </p>
      )}
    </div>
  );
}
