import { useId } from 'react';
import { useCatalogue } from '../../data/app-queries.ts';
import type { Settings } from '../../data/types.ts';
import { THEME_CHOICES } from '../../frame/theme.ts';
import { Field } from './Field.tsx';
import { useSave } from './settings-actions.ts';

/** The model Compose starts with, the text model for prompt help, and the theme. */
export function GeneralSection({ settings }: { settings: Settings }) {
  const save = useSave();
  // until it comes, the lists show the saved choices alone
  const catalogue = useCatalogue().data;
  const headingId = useId();
  const imageModels = (catalogue ?? [])
    .filter((c) => c.entry.kind === 'image')
    .map((c) => c.entry.id);
  if (settings.defaultModel && !imageModels.includes(settings.defaultModel)) {
    imageModels.push(settings.defaultModel);
  }
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
          label="Model Compose starts with"
          hint="When no model was used before. Compose keeps the last one you ran after that."
        >
          {(control) => (
            <select
              {...control}
              value={settings.defaultModel ?? ''}
              onChange={(e) =>
                void save({ defaultModel: e.target.value || null }, 'Starting model saved')
              }
            >
              <option value="">The first image model</option>
              {imageModels.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          )}
        </Field>
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
              {THEME_CHOICES.map((theme) => (
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
