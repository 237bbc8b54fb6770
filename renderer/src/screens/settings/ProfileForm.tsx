import { useMemo, useState, type FormEvent } from 'react';
import { Field, FormError } from './Field.tsx';
import {
  checkProfile,
  headerRow,
  INTERFACE_DEFAULTS,
  type GatewayProfileEdit,
  type HeaderRow,
  type ProfileDraft,
  type ProfileField,
} from './profile-draft.ts';

interface ProfileFormProps {
  initial: ProfileDraft;
  /** The other profiles' names: a name must be unique. */
  otherNames: readonly string[];
  title: string;
  /** Saves; resolves with the service's refusal, or null when saved. */
  onSave: (profile: GatewayProfileEdit) => Promise<string | null>;
  onCancel: () => void;
}

/** Adds or edits one gateway profile, checked as it is typed. */
export function ProfileForm({ initial, otherNames, title, onSave, onCancel }: ProfileFormProps) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const check = useMemo(() => checkProfile(draft, otherNames), [draft, otherNames]);
  const shown = (field: string) => submitted || touched.has(field);
  const errorOf = (field: ProfileField) => (shown(field) ? check.errors[field] : undefined);

  const edit = (field: ProfileField, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => new Set(t).add(field));
    setSaveError(null);
  };
  const editHeader = (id: number, part: 'name' | 'value', value: string) => {
    setDraft((d) => ({
      ...d,
      headers: d.headers.map((row) => (row.id === id ? { ...row, [part]: value } : row)),
    }));
    setTouched((t) => new Set(t).add(`header-${id}`));
    setSaveError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!check.profile) return;
    setSaving(true);
    const refusal = await onSave(check.profile);
    setSaving(false);
    setSaveError(refusal);
  };

  const text = (field: ProfileField, label: string, hint?: string, placeholder?: string) => (
    <Field label={label} hint={hint} error={errorOf(field)}>
      {(control) => (
        <input
          {...control}
          type={field === 'baseUrl' ? 'url' : 'text'}
          value={draft[field]}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => edit(field, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form className="profile-form" onSubmit={submit} aria-label={title} noValidate>
      <h4>{title}</h4>
      <div className="form-grid">
        {text('name', 'Name', undefined, 'My gateway')}
        {text(
          'baseUrl',
          'Base URL',
          'The address before /v1; a trailing /v1 is fine.',
          'https://gateway.example.com',
        )}
      </div>
      <fieldset className="headers">
        <legend>Extra headers</legend>
        <p className="field-hint">
          What the gateway needs besides the key (routing, an upstream provider’s key). Values are
          kept like the key and never shown again: leave one empty to keep it, type to replace it.
        </p>
        {draft.headers.map((row, index) => {
          const error = shown(`header-${row.id}`) ? check.headerErrors[row.id] : undefined;
          const errorId = `header-error-${row.id}`;
          const keptId = `header-kept-${row.id}`;
          const kept = keptDescription(row);
          return (
            <div className="header-row" key={row.id}>
              <input
                aria-label={`Header ${index + 1} name`}
                value={row.name}
                placeholder="X-Route"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                onChange={(e) => editHeader(row.id, 'name', e.target.value)}
              />
              <input
                aria-label={`Header ${index + 1} value`}
                aria-describedby={kept ? keptId : undefined}
                type="password"
                value={row.value}
                placeholder={keptPlaceholder(row)}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => editHeader(row.id, 'value', e.target.value)}
              />
              {kept && (
                <span id={keptId} className="visually-hidden">
                  {kept}
                </span>
              )}
              <button
                type="button"
                className="ghost"
                aria-label={`Remove header ${index + 1}`}
                onClick={() =>
                  setDraft((d) => ({ ...d, headers: d.headers.filter((r) => r.id !== row.id) }))
                }
              >
                ×
              </button>
              {error && (
                <p id={errorId} className="field-error header-error">
                  {error}
                </p>
              )}
            </div>
          );
        })}
        <button
          type="button"
          className="ghost"
          onClick={() => setDraft((d) => ({ ...d, headers: [...d.headers, headerRow()] }))}
        >
          Add header
        </button>
      </fieldset>
      <details className="advanced" open={hasCustomNames(initial)}>
        <summary>Advanced: the gateway’s own names</summary>
        <p className="field-hint">
          The interface’s names are filled in; change them only for a gateway that uses others.
        </p>
        <div className="form-grid">
          {text('requestIdHeader', 'Request-id header', 'The response header with its id.')}
          {text('advancedSegment', 'Advanced path segment', 'As in /v1/svc/images/generations.')}
          {text('partialKey', 'Partial-success key', 'Marks a response with fewer images.')}
          <Field
            label="Picture field in an edit"
            hint="The multipart part the picture is sent in. Auto: image for one, image[] for several."
          >
            {(control) => (
              <select
                {...control}
                value={draft.multipartImageField}
                onChange={(e) => edit('multipartImageField', e.target.value)}
              >
                <option value="auto">Auto</option>
                <option value="image">Always image</option>
                <option value="image[]">Always image[]</option>
              </select>
            )}
          </Field>
        </div>
      </details>
      <FormError message={saveError} />
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save gateway'}
        </button>
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What an empty value field means: a new value to type, or the kept one (its last four). */
function keptPlaceholder(row: HeaderRow): string {
  if (!row.kept) return 'value';
  return row.kept.last4 === null ? 'not set here: enter it' : `kept, ends in ${row.kept.last4}`;
}

function keptDescription(row: HeaderRow): string | undefined {
  if (!row.kept) return undefined;
  return row.kept.last4 === null
    ? 'This Atelier has no value for this header: enter it again.'
    : `A value ending in ${row.kept.last4} is kept; leave empty to keep it, type to replace it.`;
}

function hasCustomNames(draft: ProfileDraft): boolean {
  return (
    draft.requestIdHeader !== INTERFACE_DEFAULTS.requestIdHeader ||
    draft.advancedSegment !== INTERFACE_DEFAULTS.advancedSegment ||
    draft.partialKey !== INTERFACE_DEFAULTS.partialKey ||
    draft.multipartImageField !== INTERFACE_DEFAULTS.multipartImageField
  );
}
