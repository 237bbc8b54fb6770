import { useId, useState } from 'react';
import type { ModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { useCatalogue } from '../../data/app-queries.ts';
import { errorMessage } from '../../data/error-message.ts';
import { toast } from 'sonner';
import { useSaveUserModels } from './settings-actions.ts';
import type { Settings } from '../../data/types.ts';
import { ModelEditor } from './ModelEditor.tsx';
import { BUILT_IN_IDS, modelText, NEW_MODEL_TEXT } from './model-draft.ts';
import { PricesForm } from './PricesForm.tsx';

type Editing =
  | { mode: 'add'; text: string }
  | { mode: 'edit'; id: string }
  | { mode: 'view'; id: string }
  | null;

/** The catalogue: built-in models to view, the person's own to add, edit and remove. */
export function ModelsSection({ settings }: { settings: Settings }) {
  const { data: catalogue, error } = useCatalogue();
  const saveUserModels = useSaveUserModels();
  const [editing, setEditing] = useState<Editing>(null);
  const loadError = error ? errorMessage(error) : null;
  const headingId = useId();

  if (!catalogue) {
    return (
      <p className={loadError ? 'notice notice-error' : 'muted'} role="status">
        {loadError ?? 'Loading the models…'}
      </p>
    );
  }
  const own = catalogue.filter((c) => c.origin === 'user').map((c) => c.entry);
  const ownIds = own.map((e) => e.id);

  const saveOwn = async (entries: ModelEntry[], saved: string): Promise<string | null> => {
    const result = await saveUserModels.attempt({ entries, saved });
    if (!result.ok) return result.message;
    setEditing(null);
    return null;
  };
  const saveEntry = (entry: ModelEntry, replacing: string | null) =>
    saveOwn(
      replacing === null ? [...own, entry] : own.map((e) => (e.id === replacing ? entry : e)),
      `Model “${entry.id}” saved`,
    );
  const removeEntry = async (id: string) => {
    const refusal = await saveOwn(
      own.filter((e) => e.id !== id),
      BUILT_IN_IDS.has(id) ? `“${id}” is back to the built-in entry` : `Model “${id}” removed`,
    );
    if (refusal) toast.error(refusal);
  };

  const viewed = editing?.mode === 'view' ? catalogue.find((c) => c.entry.id === editing.id) : null;
  const edited = editing?.mode === 'edit' ? own.find((e) => e.id === editing.id) : null;

  return (
    <div className="settings-stack">
      <section className="panel settings-panel" aria-labelledby={headingId}>
        <h3 id={headingId}>Models</h3>
        <p className="field-hint">
          Built-in entries say which sizes and options each model takes. Add your own for models
          Atelier does not know, or to correct a built-in one (yours wins).
        </p>
        <div className="table-scroll">
          <table className="models-table">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Kind</th>
                <th scope="col">Entry</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {catalogue.map(({ entry, origin }) => (
                <tr key={entry.id}>
                  <th scope="row">
                    <code>{entry.id}</code>
                  </th>
                  <td>{entry.kind}</td>
                  <td>
                    <span className={`origin origin-${origin}`}>
                      {origin === 'built-in'
                        ? 'Built-in'
                        : BUILT_IN_IDS.has(entry.id)
                          ? 'Yours (over built-in)'
                          : 'Yours'}
                    </span>
                  </td>
                  <td>
                    <span className="row-actions">
                      {origin === 'built-in' ? (
                        <>
                          <button
                            type="button"
                            className="ghost"
                            aria-label={`View ${entry.id}`}
                            onClick={() => setEditing({ mode: 'view', id: entry.id })}
                          >
                            View
                          </button>
                          <button
                            type="button"
                            className="ghost"
                            aria-label={`Customize ${entry.id}`}
                            onClick={() => setEditing({ mode: 'add', text: modelText(entry) })}
                          >
                            Customize
                          </button>
                        </>
                      ) : (
                        <>
                          <button
                            type="button"
                            className="ghost"
                            aria-label={`Edit ${entry.id}`}
                            onClick={() => setEditing({ mode: 'edit', id: entry.id })}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="ghost"
                            aria-label={`Remove ${entry.id}`}
                            onClick={() => void removeEntry(entry.id)}
                          >
                            {BUILT_IN_IDS.has(entry.id) ? 'Reset' : 'Remove'}
                          </button>
                        </>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {viewed && (
          <div
            className="model-view"
            role="region"
            aria-label={`Entry of ${viewed.entry.id}`}
            ref={(el) => el?.scrollIntoView?.({ block: 'nearest' })}
          >
            <div className="model-view-head">
              <h4>
                <code>{viewed.entry.id}</code> (built-in)
              </h4>
              <button type="button" className="ghost" onClick={() => setEditing(null)}>
                Close
              </button>
            </div>
            <pre>{modelText(viewed.entry)}</pre>
          </div>
        )}
        {editing?.mode === 'add' && (
          <ModelEditor
            key={editing.text}
            title="New model entry"
            initial={editing.text}
            otherIds={ownIds}
            onSave={(entry) => saveEntry(entry, null)}
            onCancel={() => setEditing(null)}
          />
        )}
        {edited && (
          <ModelEditor
            key={edited.id}
            title={`Edit “${edited.id}”`}
            initial={modelText(edited)}
            otherIds={ownIds.filter((id) => id !== edited.id)}
            onSave={(entry) => saveEntry(entry, edited.id)}
            onCancel={() => setEditing(null)}
          />
        )}
        {(editing === null || editing.mode === 'view') && (
          <button type="button" onClick={() => setEditing({ mode: 'add', text: NEW_MODEL_TEXT })}>
            Add model
          </button>
        )}
      </section>
      <PricesForm
        key={JSON.stringify([settings.prices, settings.currency])}
        settings={settings}
        models={catalogue.map((c) => c.entry)}
      />
    </div>
  );
}
