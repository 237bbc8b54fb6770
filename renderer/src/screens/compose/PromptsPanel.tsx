import { useState } from 'react';
import type { ModelEntry } from '../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from './draft.ts';
import { FileImport } from './FileImport.tsx';
import { PromptTools } from './prompt-help/PromptTools.tsx';
import { suggestSplitMode } from './split-prompts.ts';
import type { ExpandedPrompts } from './template.ts';

export const EXAMPLE_TEMPLATE =
  'a {red|blue|green} {fox|owl} in the snow, {watercolor|ink drawing}\na lighthouse at dusk, {subject} in the foreground';
export const EXAMPLE_VARIABLES = { subject: 'a fishing boat\na lone walker' };

interface Props {
  draft: ComposeDraft;
  edit(patch: Partial<ComposeDraft>): void;
  expanded: ExpandedPrompts;
  /** The saved draft was read: until then typing would be lost to it. */
  ready: boolean;
  /** The catalogue, for prompt help's target model. */
  entries: readonly ModelEntry[];
}

/** The prompts: typed or pasted (each line or paragraph a template), or a prompt file. */
export function PromptsPanel({ draft, edit, expanded, ready, entries }: Props) {
  // where the caret is: prompt help's expand and variations work on the prompt there
  const [caret, setCaret] = useState(0);
  if (draft.file) return <FileCard file={draft.file} onRemove={() => edit({ file: null })} />;
  const empty = draft.text.trim() === '';
  return (
    <section className="panel compose-prompts" aria-labelledby="prompts-heading">
      <div className="compose-heading-row">
        <h2 id="prompts-heading">Prompts</h2>
        <div className="compose-segmented" role="radiogroup" aria-label="Split prompts">
          {(['line', 'paragraph'] as const).map((mode) => (
            <label key={mode}>
              <input
                type="radio"
                name="split"
                value={mode}
                checked={draft.split === mode}
                onChange={() => edit({ split: mode })}
              />
              <span>One per {mode}</span>
            </label>
          ))}
        </div>
      </div>
      <textarea
        className="compose-text"
        aria-label="Prompts or templates"
        aria-describedby="prompts-help"
        aria-invalid={expanded.errors.length > 0}
        spellCheck
        rows={8}
        value={draft.text}
        readOnly={!ready}
        placeholder={
          ready ? 'a {red|blue} {fox|owl} in the snow\na lighthouse at dusk' : 'Loading your draft…'
        }
        onChange={(e) => {
          edit({ text: e.target.value });
          setCaret(e.target.selectionStart);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onPaste={(e) => {
          // pasted paragraphs of several lines are meant as one prompt each
          const pasted = e.clipboardData.getData('text');
          if (draft.text.trim() === '' && suggestSplitMode(pasted) === 'paragraph') {
            edit({ split: 'paragraph' });
          }
        }}
      />
      <PromptTools draft={draft} entries={entries} caret={caret} />
      <p id="prompts-help" className="compose-help muted">
        {draft.split === 'line'
          ? 'Each line is a prompt.'
          : 'Each paragraph (lines separated by a blank line) is a prompt.'}{' '}
        <code>{'{red|blue}'}</code> makes one prompt per option; <code>{'{subject}'}</code> takes
        the values you list below; <code>{'\\{'}</code> is a literal brace.
      </p>
      {expanded.errors.length > 0 && (
        <ul className="compose-errors" aria-label="Template errors">
          {expanded.errors.slice(0, 20).map((e) => (
            <li key={`${e.line}:${e.column}`}>
              Line {e.line}, column {e.column}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {expanded.variables.map((name) => (
        <label key={name} className="compose-field">
          <span>
            Values for <code>{`{${name}}`}</code> <span className="muted">(one per line)</span>
          </span>
          <textarea
            rows={3}
            value={draft.variables[name] ?? ''}
            onChange={(e) => edit({ variables: { ...draft.variables, [name]: e.target.value } })}
          />
        </label>
      ))}
      {empty && (
        <div className="compose-empty">
          <p>
            <strong>Start from an example.</strong> One line with lists in braces makes every
            combination: <code>{'a {red|blue|green} {fox|owl}'}</code> is six prompts. Add seeds or
            sizes on the right to multiply them again.
          </p>
          <button
            type="button"
            className="ghost"
            onClick={() => edit({ text: EXAMPLE_TEMPLATE, variables: EXAMPLE_VARIABLES })}
          >
            Use the example
          </button>
        </div>
      )}
      <FileImport onFile={(file) => edit({ file })} />
    </section>
  );
}

function FileCard({ file, onRemove }: { file: { name: string; text: string }; onRemove(): void }) {
  const lines = file.text.split('\n').length;
  return (
    <section className="panel compose-prompts" aria-labelledby="prompts-heading">
      <h2 id="prompts-heading">Prompts from a file</h2>
      <div className="compose-file">
        <span className="compose-file-name">{file.name}</span>
        <span className="muted">{lines.toLocaleString('en-US')} lines</span>
        <button type="button" className="ghost" onClick={onRemove}>
          Remove the file
        </button>
      </div>
      <p className="compose-help muted">
        Each row is checked by the service as the command line checks it; columns a row leaves out
        take the first model and size chosen on the right.
      </p>
    </section>
  );
}
