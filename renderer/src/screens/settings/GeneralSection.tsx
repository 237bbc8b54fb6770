import { useEffect, useId } from 'react';
import { useAppStore } from '../../store/react.ts';
import type { Settings } from '../../store/state.ts';
import { Field } from './Field.tsx';
import { useSave } from './use-save.ts';

const THEMES: Array<{ value: Settings['theme']; label: string }> = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The text model for prompt help, and the theme. */
export function GeneralSection({ settings }: { settings: Settings }) {
  const save = useSave();
  const catalogue = useAppStore((s) => s.catalogue);
  const loadCatalogue = useAppStore((s) => s.loadCatalogue);
  const headingId = useId();
  useEffect(() => {
    if (!catalogue) loadCatalogue().catch(() => {}); // the list falls back to the saved choice
  }, [catalogue, loadCatalogue]);
  const textModels = (catalogue ?? [])
    .filter((c) => c.entry.kind === 'text')
    .map((c) => c.entry.id);
  if (settings.promptModel && !textModels.includes(settings.promptModel)) {
    textModels.push(settings.promptModel);
  }
  return (
    <section className="panel settings-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>General</h3>
      <div className="form-grid">
        <Field
          label="Text model for prompt help"
          hint="Used to suggest and vary prompts; add more text models under Models."
        >
          {(control) => (
            <select
              {...control}
              value={settings.promptModel ?? ''}
              onChange={(e) =>
                void save({ promptModel: e.target.value || null }, 'Prompt help model saved')
              }
            >
              <option value="">None</option>
              {textModels.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Theme">
          {(control) => (
            <select
              {...control}
              value={settings.theme}
              onChange={(e) =>
                void save({ theme: e.target.value as Settings['theme'] }, 'Theme saved')
              }
            >
              {THEMES.map((theme) => (
                <option key={theme.value} value={theme.value}>
                  {theme.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </section>
  );
}
