import { useId, useMemo, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { ApiErrorCode } from '../../../../../shared/api/errors.ts';
import type { ModelEntry } from '../../../../../shared/gateway/catalogue.ts';
import { useAppInfo, useSettings } from '../../../data/app-queries.ts';
import type { PromptHelp } from '../../../data/types.ts';
import { plural } from '../../../format.ts';
import { composeUi } from '../compose-state.ts';
import type { ComposeDraft } from '../draft.ts';
import { appendPrompts } from './prompt-text.ts';
import { helpErrorText, parseCount } from './help-error.ts';
import { targetOf, textModelsOf, type Target } from './models.ts';
import { useAskPromptHelp, useCancelPromptHelp } from './prompt-help-actions.ts';
import { usePromptHelp } from './prompt-help-queries.ts';
import { promptHelpUi } from './prompt-help-state.ts';
import { SuggestionList } from './SuggestionList.tsx';
import { seenOf, suggestionRows, textsOf, type Suggestion } from './suggestions.ts';

interface Props {
  draft: ComposeDraft;
  entries: readonly ModelEntry[];
}

/**
 * Prompt help: a theme becomes prompts written by a text model, streamed into rows the person
 * edits and ticks, then added to the prompts box (with Undo). The request runs in the service
 * (the key never reaches the window); its prompts come as events into its query.
 */
export function PromptHelpPanel({ draft, entries }: Props) {
  const store = promptHelpUi.useStoreApi();
  const theme = promptHelpUi.useSelect((s) => s.theme);
  const count = promptHelpUi.useSelect((s) => s.count);
  const style = promptHelpUi.useSelect((s) => s.style);
  const model = promptHelpUi.useSelect((s) => s.model);
  const kept = promptHelpUi.useSelect((s) => s.kept);
  const requestId = promptHelpUi.useSelect((s) => s.requestId);
  const edits = promptHelpUi.useSelect((s) => s.edits);
  const set = promptHelpUi.useSelect((s) => s.set);
  const revise = composeUi.useSelect((s) => s.revise);
  const undo = composeUi.useSelect((s) => s.undo);
  const help = usePromptHelp(requestId);
  const rows = useMemo(() => suggestionRows(kept, help, edits), [kept, help, edits]);
  const ask = useAskPromptHelp();
  const cancel = useCancelPromptHelp();
  const [startError, setStartError] = useState<{ code: ApiErrorCode | null; message: string }>();
  const settings = useSettings().data;
  const demo = useAppInfo().data?.demo ?? false;
  const ids = { heading: useId(), style: useId(), hint: useId() };

  const target = targetOf(draft, entries);
  const fromSettings = settings?.promptModel ?? null;
  const textModels = textModelsOf(entries, fromSettings);
  const asked = model ?? fromSettings;
  const wanted = parseCount(count);
  const running = help?.state === 'running';
  const ticked = rows.filter((row) => row.ticked);
  const unticked = rows.length - ticked.length;
  // the unticked ones are replaced, and the list filled up to the number asked for
  const rest = unticked + Math.max(0, (wanted ?? 0) - rows.length);

  const why = !theme.trim()
    ? 'Write a theme or an idea.'
    : wanted === null
      ? 'Ask for 1 to 100 prompts.'
      : !asked && !demo
        ? 'Choose a text model.'
        : null;

  async function suggest(howMany: number, keptRows: Suggestion[], exclude: string[]) {
    setStartError(undefined);
    const result = await ask.attempt({
      task: 'theme',
      input: {
        theme: theme.trim(),
        count: howMany,
        style,
        exclude: exclude.slice(0, 100),
        ...(model ? { model } : {}),
        ...(target ? { targetModel: target.model } : {}),
      },
    });
    if (!result.ok) return setStartError(result);
    store.getState().follow(result.value.id, keptRows);
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (why || running || wanted === null) return;
    void suggest(wanted, [], []);
  };

  /** The ticked rows stay; the others are asked for again (never the same ones). */
  const regenerate = () => {
    if (rest === 0) return;
    void suggest(
      rest,
      ticked.map((row) => ({ ...row, text: row.text.trim() })),
      seenOf(rows),
    );
  };

  const addToBox = (chosen: readonly Suggestion[]) => {
    const texts = textsOf(chosen);
    if (texts.length === 0) return;
    const cut = chosen.filter((row) => row.note).length;
    revise(
      { text: appendPrompts(draft.text, texts, draft.split) },
      `add ${plural(texts.length, 'prompt')}`,
    );
    store.getState().clearRows();
    toast.success(`${plural(texts.length, 'prompt')} added to the prompts`, {
      description:
        cut > 0
          ? `${plural(cut, 'prompt was', 'prompts were')} cut to fit ${target?.model ?? 'the model'}.`
          : undefined,
      action: { label: 'Undo', onClick: () => undo() },
    });
  };

  return (
    <section className="panel prompt-help" aria-labelledby={ids.heading}>
      <div className="compose-heading-row">
        <h2 id={ids.heading}>Prompt help</h2>
        <button
          type="button"
          className="ghost icon"
          aria-label="Close prompt help"
          onClick={() => set({ open: false })}
        >
          ✕
        </button>
      </div>
      <form className="prompt-help-form" onSubmit={onSubmit}>
        <label className="compose-field">
          <span>Theme or idea</span>
          <textarea
            className="prompt-help-theme"
            rows={2}
            value={theme}
            placeholder="a lighthouse keeper's year, season by season"
            onChange={(e) => set({ theme: e.target.value })}
            onKeyDown={(e) => {
              // Enter asks; Shift+Enter is a new line
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
        </label>
        <div className="prompt-help-options">
          <label className="compose-field prompt-help-count">
            <span>How many</span>
            <input
              type="number"
              min={1}
              max={100}
              value={count}
              aria-invalid={wanted === null}
              onChange={(e) => set({ count: e.target.value })}
            />
          </label>
          <div className="compose-field">
            <span id={ids.style}>Style</span>
            <div className="compose-segmented" role="radiogroup" aria-labelledby={ids.style}>
              {(
                [
                  ['prose', 'Prose'],
                  ['tags', 'Tags'],
                ] as const
              ).map(([value, label]) => (
                <label key={value}>
                  <input
                    type="radio"
                    name="prompt-style"
                    value={value}
                    checked={style === value}
                    onChange={() => set({ style: value })}
                  />
                  <span>{label}</span>
                </label>
              ))}
            </div>
          </div>
          <label className="compose-field prompt-help-model">
            <span>Text model</span>
            <select
              value={model ?? ''}
              aria-describedby={ids.hint}
              onChange={(e) => set({ model: e.target.value || null })}
            >
              <option value="">
                {fromSettings
                  ? `${fromSettings} (Settings)`
                  : demo && textModels[0]
                    ? `${textModels[0]} (the demo’s)`
                    : 'None chosen in Settings'}
              </option>
              {textModels
                .filter((id) => id !== (fromSettings ?? (demo ? textModels[0] : null)))
                .map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
            </select>
          </label>
        </div>
        <p id={ids.hint} className="compose-help muted">
          {targetText(target, draft.mode)}
          {!asked && !demo && ' Choose a text model here, or one for good in Settings › General.'}
        </p>
        <div className="prompt-help-ask">
          {running ? (
            <button
              type="button"
              className="ghost"
              disabled={cancel.disabled}
              onClick={() => void cancel.run(help.id)}
            >
              Cancel
            </button>
          ) : (
            <button type="submit" disabled={Boolean(why) || ask.disabled}>
              {wanted ? `Suggest ${plural(wanted, 'prompt')}` : 'Suggest prompts'}
            </button>
          )}
          <HelpStatus help={help} kept={kept.length} reason={running ? null : why} />
        </div>
      </form>
      {startError && (
        <p className="notice notice-error prompt-help-error" role="alert">
          {helpErrorText(startError)}
        </p>
      )}
      {help?.state === 'failed' && help.error && (
        <p className="notice notice-error prompt-help-error" role="alert">
          {helpErrorText(help.error)}
        </p>
      )}
      {(rows.length > 0 || running) && (
        <>
          <SuggestionList rows={rows} writing={running ? help.partial : null} />
          <div className="prompt-help-actions">
            <button
              type="button"
              disabled={running || rows.length === 0 || Boolean(draft.file)}
              onClick={() => addToBox(rows)}
            >
              Add all {rows.length}
            </button>
            <button
              type="button"
              className="ghost"
              disabled={running || ticked.length === 0 || Boolean(draft.file)}
              onClick={() => addToBox(ticked)}
            >
              Add {ticked.length} ticked
            </button>
            <button
              type="button"
              className="ghost"
              disabled={running || rest === 0 || Boolean(why) || ask.disabled}
              onClick={regenerate}
              title="Keeps the ticked prompts and asks for new ones in place of the others"
            >
              Regenerate the rest{rest > 0 ? ` (${rest})` : ''}
            </button>
            <button
              type="button"
              className="ghost"
              disabled={running}
              onClick={() => store.getState().clearRows()}
            >
              Clear
            </button>
          </div>
          {draft.file && (
            <p className="compose-help muted">
              Remove the prompt file to add these: they go into the prompts box.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function targetText(target: Target | null, mode: ComposeDraft['mode']): string {
  if (!target) return `Written for any ${mode} model: choose one to fit its limit.`;
  const limit =
    target.limit === null
      ? ''
      : `, each at most ${target.limit.toLocaleString('en-US')} characters`;
  return target.kind === 'video'
    ? `Written for ${target.model} (the action and the camera)${limit}.`
    : `Written for ${target.model}${limit}.`;
}

/** Where the request stands, in one line read out as it changes. */
function HelpStatus({
  help,
  kept,
  reason,
}: {
  help: PromptHelp | undefined;
  /** Rows kept from earlier requests, above this one's. */
  kept: number;
  reason: string | null;
}) {
  let text = reason ?? '';
  if (!reason && help) {
    const got = help.prompts.length;
    const repeats = help.duplicates > 0 ? ` ${plural(help.duplicates, 'repeat')} left out.` : '';
    const also = kept > 0 ? `, beside the ${kept} kept` : '';
    if (help.state === 'running') text = `${help.model} is writing… ${got} of ${help.asked}`;
    else if (help.state === 'done') {
      text =
        got < help.asked
          ? `${got} of ${help.asked} came from ${help.model}${also}.${repeats} Regenerate the rest for more.`
          : `${plural(got, kept > 0 ? 'new prompt' : 'prompt')} from ${help.model}${also}.${repeats}`;
    } else if (help.state === 'canceled') {
      text = `Canceled: the ${plural(got, 'prompt')} that came are kept.`;
    } else text = '';
  }
  return (
    <span className="prompt-help-status muted" role="status">
      {text}
    </span>
  );
}
