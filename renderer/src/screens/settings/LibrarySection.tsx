import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLibraryInfo } from '../../data/app-queries.ts';
import { useApi } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';
import type { Settings } from '../../data/types.ts';
import { Field, SwitchField } from './Field.tsx';
import { LibraryMovePanel } from './LibraryMovePanel.tsx';
import { useMoveLibrary, useSave } from './settings-actions.ts';

const PREVIEW_DELAY_MS = 250;

/** The service's default (main/core/library/naming/template.ts), shown when none is set. */
const DEFAULT_TEMPLATE = '{batch}/{index}-{slug}-{seed}.{ext}';

/** The names the service's template takes (main/core/library/naming/template.ts). */
const TEMPLATE_VARIABLES = [
  'batch',
  'index',
  'image',
  'slug',
  'name',
  'seed',
  'model',
  'size',
  'job',
  'date',
  'ext',
];

/** Where images are written, how they are named, and what is written beside them. */
export function LibrarySection({ settings }: { settings: Settings }) {
  const save = useSave();
  const { data: info, error: infoError } = useLibraryInfo();
  const moveLibrary = useMoveLibrary();
  const [folder, setFolder] = useState<string | null>(null);
  const [refusal, setFolderError] = useState<string | null>(null);
  const folderError = refusal ?? (infoError ? errorMessage(infoError) : null);
  const moving = moveLibrary.pending;
  const folderHeading = useId();
  const filesHeading = useId();

  const shownFolder = folder ?? info?.libraryDir ?? '';
  const move = async (event: FormEvent) => {
    event.preventDefault();
    const result = await moveLibrary.attempt(shownFolder.trim());
    setFolderError(result.ok ? null : result.message);
    if (result.ok) setFolder(null);
  };

  return (
    <div className="settings-stack">
      <form className="panel settings-panel" aria-labelledby={folderHeading} onSubmit={move}>
        <h3 id={folderHeading}>Library folder</h3>
        <Field
          label="Folder"
          hint={
            info
              ? `Each batch gets a folder inside it. Atelier’s own data stays in ${info.dataDir}.`
              : 'Each batch gets a folder inside it.'
          }
          error={folderError}
        >
          {(control) => (
            <input
              {...control}
              value={shownFolder}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => {
                setFolder(e.target.value);
                setFolderError(null);
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <button
            type="submit"
            disabled={moving || !shownFolder.trim() || shownFolder === info?.libraryDir}
          >
            {moving ? 'Changing…' : 'Use this folder'}
          </button>
        </div>
      </form>
      <LibraryMovePanel />
      <section className="panel settings-panel" aria-labelledby={filesHeading}>
        <h3 id={filesHeading}>Files</h3>
        <TemplateForm key={settings.template ?? ''} settings={settings} />
        <div className="switch-list">
          <SwitchField
            label="Sidecar file per image"
            hint="A .json beside each image with its prompt and parameters."
            checked={settings.sidecar}
            onChange={(on) => void save({ sidecar: on }, on ? 'Sidecars on' : 'Sidecars off')}
          />
          <SwitchField
            label="Manifest per batch"
            hint="One file listing every image of a batch, with its prompt."
            checked={settings.manifest}
            onChange={(on) => void save({ manifest: on }, on ? 'Manifests on' : 'Manifests off')}
          />
          <SwitchField
            label="Thumbnails"
            hint="Small copies for a fast gallery."
            checked={settings.thumbnails}
            onChange={(on) =>
              void save({ thumbnails: on }, on ? 'Thumbnails on' : 'Thumbnails off')
            }
          />
        </div>
      </section>
    </div>
  );
}

/** The file name template, with the name it would give shown as it is typed. */
function TemplateForm({ settings }: { settings: Settings }) {
  const save = useSave();
  const api = useApi();
  const currentExample = useLibraryInfo().data?.example ?? null;
  const [template, setTemplate] = useState(settings.template ?? '');
  const [preview, setPreview] = useState<{ example: string | null; error: string | null }>({
    example: null,
    error: null,
  });
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    if (template.trim() === '') {
      setPreview({ example: null, error: null });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      // the service names a typical image with it: a question, not data to keep
      api.library.previewTemplate({ template }).then(
        ({ example }) => current && setPreview({ example, error: null }),
        (error: unknown) => current && setPreview({ example: null, error: errorMessage(error) }),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [template, api]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refusal = await save(
      { template: template.trim() === '' ? null : template.trim() },
      'File name template saved',
    );
    setSaveError(refusal);
  };

  const example = template.trim() === '' ? currentExample : preview.example;
  const error = saveError ?? preview.error;
  const unchanged = (settings.template ?? '') === template.trim();
  return (
    <form className="template-form" onSubmit={submit}>
      <Field
        label="File name template"
        hint={
          <>
            For example: <code className="example">{example ?? '…'}</code>
            <br />
            Variables: {TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}; it ends with .{'{ext}'}.
            Empty: the default.
          </>
        }
        error={error}
      >
        {(control) => (
          <input
            {...control}
            value={template}
            spellCheck={false}
            autoComplete="off"
            placeholder={DEFAULT_TEMPLATE}
            onChange={(e) => {
              setTemplate(e.target.value);
              setSaveError(null);
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" disabled={unchanged || Boolean(preview.error)}>
          Save template
        </button>
      </div>
    </form>
  );
}
