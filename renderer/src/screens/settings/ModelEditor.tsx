import { useId, useMemo, useState } from 'react';
import { checkModelText } from './model-draft.ts';
import type { ModelEntry } from '../../../../shared/gateway/catalogue.ts';

interface ModelEditorProps {
  title: string;
  initial: string;
  otherIds: readonly string[];
  /** Resolves with the service's refusal, or null when saved. */
  onSave: (entry: ModelEntry) => Promise<string | null>;
  onCancel: () => void;
}

/** One model entry as JSON (the fields of models.json), checked as it is typed. */
export function ModelEditor({ title, initial, otherIds, onSave, onCancel }: ModelEditorProps) {
  const [text, setText] = useState(initial);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const check = useMemo(() => checkModelText(text, otherIds), [text, otherIds]);
  const id = useId();
  const error = saveError ?? check.error;
  return (
    <form
      className="model-editor"
      aria-label={title}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!check.entry) return;
        setSaving(true);
        setSaveError(await onSave(check.entry));
        setSaving(false);
      }}
    >
      <h4>{title}</h4>
      <label htmlFor={id}>Entry (JSON, the fields of models.json)</label>
      <textarea
        id={id}
        value={text}
        rows={Math.min(18, Math.max(8, text.split('\n').length + 1))}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-status`}
        onChange={(e) => {
          setText(e.target.value);
          setSaveError(null);
        }}
      />
      <p id={`${id}-status`} className={error ? 'field-error' : 'field-hint'}>
        {error ??
          `A valid ${check.entry!.kind} model entry. kind is image, video or text; see “Models” ` +
            'in the README for every field.'}
      </p>
      <div className="form-actions">
        <button type="submit" disabled={!check.entry || saving}>
          {saving ? 'Saving…' : 'Save model'}
        </button>
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
