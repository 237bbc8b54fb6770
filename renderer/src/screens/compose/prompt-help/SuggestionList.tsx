import { promptHelpUi } from './prompt-help-state.ts';
import type { Suggestion } from './suggestions.ts';

/**
 * The suggested prompts as they arrive: each one editable, ticked to keep; the line the model
 * is writing shows last, not yet a row.
 */
export function SuggestionList({
  rows,
  writing,
}: {
  rows: readonly Suggestion[];
  /** The line being written now; null when nothing streams. */
  writing: string | null;
}) {
  const editRow = promptHelpUi.useSelect((s) => s.editRow);
  return (
    <ol className="suggestions" aria-label="Suggested prompts">
      {rows.map((row, i) => (
        <li key={row.key} className={`suggestion${row.ticked ? ' ticked' : ''}`}>
          <input
            type="checkbox"
            aria-label={`Keep prompt ${i + 1}`}
            checked={row.ticked}
            onChange={(e) => editRow(row.key, { ticked: e.target.checked })}
          />
          <span className="suggestion-body">
            <textarea
              className="suggestion-text"
              aria-label={`Prompt ${i + 1}`}
              rows={1}
              value={row.text}
              onChange={(e) => editRow(row.key, { text: e.target.value })}
            />
            {row.note && <span className="suggestion-note">{row.note}</span>}
          </span>
        </li>
      ))}
      {writing !== null && (
        // read out by the status line's counts, not word by word
        <li className="suggestion suggestion-writing" aria-hidden="true">
          <span className="suggestion-spinner" />
          <span className="suggestion-body">
            <span className="suggestion-partial">{writing || 'Thinking…'}</span>
          </span>
        </li>
      )}
    </ol>
  );
}
