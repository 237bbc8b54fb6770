import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useClient } from '../../api/client-context.ts';
import { useCatalogue, useSettings } from '../../data/app-queries.ts';
import { errorMessage } from '../../data/error-message.ts';
import { plural } from '../../format.ts';
import { estimate } from '../compose/estimate.ts';
import { useImageDetail } from '../gallery/gallery-queries.ts';
import { galleryUi } from '../gallery/gallery-state.ts';
import { DEFAULT_VIEW } from '../gallery/gallery-view.ts';
import { altOf } from '../gallery/lightbox/LightboxStage.tsx';
import { LightboxFrame, LightboxToolbar } from '../gallery/lightbox/LightboxFrame.tsx';
import { panKeys, useZoom } from '../gallery/lightbox/ZoomControls.tsx';
import type { Size } from '../gallery/lightbox/zoom-pan.ts';
import { stepSize, type BrushSettings } from './brush.ts';
import { useCreateEdits } from './edit-actions.ts';
import {
  chosenModel,
  editInputOf,
  editModels,
  jobsOf,
  runBlockers,
  type EditInput,
} from './edit-form.ts';
import { editCommandOf, inField, type EditCommand, type KeyLike } from './edit-keys.ts';
import { editUi } from './edit-state.ts';
import { EditPanel } from './EditPanel.tsx';
import { EditTools } from './EditTools.tsx';
import type { MaskLayer } from './mask-layer.ts';
import { MaskStage } from './MaskStage.tsx';
import { useEditCheck } from './use-edit-check.ts';
import { useEncodedMask, useMaskLayer, useMaskVersion } from './use-mask.ts';
import '../gallery/lightbox/lightbox.css';
import './edit.css';
import { useSpendConfirm } from '../../views/SpendConfirm.tsx';

/** The editor over the gallery while images are being edited (editUi.open). */
export function EditDialog() {
  const editing = editUi.useSelect((s) => s.editing);
  const close = editUi.useSelect((s) => s.close);
  if (!editing) return null;
  return <Editor key={editing.join(',')} ids={editing} onClose={close} />;
}

const KEYS_HELP =
  'Drag to paint where the picture may change. B brush, E eraser, H or Space held to move the view; ' +
  '[ and ] change the size, I inverts, Delete clears, Ctrl+Z undoes, Ctrl+Shift+Z redoes; plus, ' +
  'minus and 0 zoom, the arrow keys move. Ctrl+Enter runs. Escape closes: the mask is kept for ' +
  'this picture.';

/**
 * One picture with a mask to paint, or several for one prompt: the mask, the prompt, the model
 * and its settings, the estimate and the service's checks as they are typed; Run queues it.
 */
function Editor({ ids, onClose }: { ids: readonly number[]; onClose(): void }) {
  const { mediaUrl } = useClient();
  const first = ids[0];
  const detail = useImageDetail(first).data ?? null;
  const [natural, setNatural] = useState<Size | null>(null);
  const picture = pictureOf(detail, mediaUrl);
  const layer = useMaskLayer(first, picture ? natural : null);
  const version = useMaskVersion(layer);
  const encoded = useEncodedMask(layer, version);
  const zoom = useZoom();
  const brush = editUi.useSelect((s) => s.brush);
  const setBrush = editUi.useSelect((s) => s.setBrush);
  const form = editUi.useSelect((s) => s.form);
  const setForm = editUi.useSelect((s) => s.setForm);
  const [moving, setMoving] = useSpaceHeld();
  const [showMask, setShowMask] = useState(true);

  const catalogue = useCatalogue().data ?? null;
  const settings = useSettings().data ?? null;
  const models = useMemo(
    () => (catalogue ? editModels(catalogue.map((c) => c.entry)) : null),
    [catalogue],
  );
  const model = models ? chosenModel(form, models, settings?.defaultModel ?? null) : null;
  const jobs = jobsOf(ids.length, form.prompts);
  // the picture is not one to paint over (a video, not downloaded): no mask, the check says why
  const paintable = picture !== null && detail !== null;
  const maskState = !paintable ? 'current' : encoded ? 'current' : 'preparing';
  const maskPng = encoded?.png ?? null;
  const input = useMemo<EditInput | null>(
    () =>
      model && jobs.ok && maskState === 'current'
        ? editInputOf(ids, form, model, paintable ? maskPng : null)
        : null,
    [ids, form, model, maskState, maskPng, paintable, jobs.ok],
  );
  const check = useEditCheck(input);
  const spendConfirm = useSpendConfirm();
  const create = useCreateEdits(spendConfirm.ask);
  const gallery = galleryUi.useStoreApi();
  const jobCount = jobs.ok ? jobs.jobs : null;
  const cost = useMemo(() => {
    if (!model || jobCount === null) return null;
    return estimate(
      { [model.id]: jobCount * form.n },
      {
        prices: settings?.prices ?? {},
        listPrice: () => model.pricePerImage,
        currency: settings?.currency ?? null,
      },
    );
  }, [model, jobCount, form.n, settings]);
  const blockers = runBlockers({
    jobs,
    model,
    picture: detail === null ? 'loading' : paintable && !layer ? 'loading' : 'ready',
    mask: maskState,
    check,
    sending: create.pending,
  });

  const run = async (position: 'back' | 'front') => {
    if (!input || blockers.length > 0) return;
    const spend = check.status === 'done' ? check.check.spend : null;
    const batch = await create.run({ input: { ...input, position }, spend });
    if (!batch) return;
    toast.success(`Queued ${plural(batch.jobCount, 'edit')}: ${batch.name}`, {
      action: {
        label: 'Show',
        onClick: () => {
          const { view, setView } = gallery.getState();
          setView({ ...DEFAULT_VIEW, order: view.order, group: view.group, batchId: batch.id });
        },
      },
    });
    onClose();
  };

  const commands = useToolCommands(layer, setBrush, () => setShowMask((s) => !s));
  const onKey: Record<EditCommand, () => void> = {
    brush: () => setBrush({ tool: 'brush' }),
    eraser: () => setBrush({ tool: 'eraser' }),
    hand: () => setBrush({ tool: 'hand' }),
    smaller: () => setBrush({ size: stepSize(brush.size, -1) }),
    bigger: () => setBrush({ size: stepSize(brush.size, 1) }),
    invert: commands.invert,
    clear: commands.clear,
    undo: commands.undo,
    redo: commands.redo,
    'zoom-in': zoom.zoomIn,
    'zoom-out': zoom.zoomOut,
    fit: zoom.fit,
    ...panKeys(zoom),
    run: () => void run('back'),
  };

  const onEditorKey = (event: KeyLike & { preventDefault(): void; stopPropagation(): void }) => {
    if (event.key === ' ' && !inField(event.target) && !isControl(event.target)) {
      event.preventDefault();
      setMoving(true);
      return;
    }
    const command = editCommandOf(event);
    if (!command) return;
    event.preventDefault();
    event.stopPropagation();
    onKey[command]();
  };
  useKeysWithoutFocus(onEditorKey);

  const loadMask = async (file: File) => {
    if (!layer) return;
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(file);
    } catch {
      toast.error(`Could not load the mask: ${file.name} is not a picture this browser can read.`);
      return;
    }
    const stretched = !sameShape(bitmap, layer);
    const loaded = layer.load(bitmap);
    bitmap.close();
    const how =
      loaded.convention === 'brightness'
        ? 'it has no transparency, so its light parts are what may change'
        : 'its transparent parts are what may change';
    toast.success(
      `Mask loaded from ${file.name}: ${how}.` +
        (stretched ? ' Its shape differs from the picture’s: it was stretched to fit.' : '') +
        (loaded.painted === 0 ? ' It leaves nothing to change.' : ''),
    );
  };

  const saveMask = async () => {
    if (!layer) return;
    try {
      const made = await layer.export();
      download(made.png, `mask-${first}-${layer.width}x${layer.height}.png`);
    } catch (error) {
      toast.error(`Could not save the mask: ${errorMessage(error)}`);
    }
  };

  const title = ids.length === 1 ? 'Edit image' : `Edit ${ids.length} images`;
  return (
    <>
      <LightboxFrame className="lightbox editor" onClose={onClose} onKeyDown={onEditorKey}>
        <LightboxToolbar title={title} description={KEYS_HELP} label="Mask tools">
          <EditTools
            brush={brush}
            commands={commands}
            canUndo={layer?.canUndo ?? false}
            canRedo={layer?.canRedo ?? false}
            showMask={showMask}
            zoom={zoom}
            disabled={!paintable || !layer}
          />
        </LightboxToolbar>
        <div className="lb-body ed-body">
          <div className="lb-stage">
            {picture ? (
              <MaskStage
                picture={picture}
                layer={layer}
                zoom={zoom}
                brush={brush}
                moving={moving}
                showMask={showMask}
                describedBy="ed-keys-help"
                onNaturalSize={setNatural}
              />
            ) : (
              <p className="lb-message muted" role="status">
                {detail === null
                  ? 'Loading…'
                  : detail.kind === 'video'
                    ? 'A video cannot be edited here; the checks say what can.'
                    : `This picture is not downloaded (${detail.downloadState}): there is nothing to paint over.`}
              </p>
            )}
            <p id="ed-keys-help" className="visually-hidden">
              {KEYS_HELP}
            </p>
          </div>
          <EditPanel
            ids={ids}
            form={form}
            setForm={setForm}
            models={models}
            model={model}
            mask={{
              paintable: paintable && layer !== null,
              share: encoded ? encoded.share : null,
              size: layer ? { width: layer.width, height: layer.height } : null,
            }}
            onLoadMask={(file) => void loadMask(file)}
            onSaveMask={() => void saveMask()}
            jobs={jobs}
            check={check}
            estimate={cost}
            blockers={blockers}
            onRun={(position) => void run(position)}
            running={create.pending}
          />
        </div>
      </LightboxFrame>
      {/* beside the editor, not in it: its keys must not reach the editor's shortcuts */}
      {spendConfirm.dialog}
    </>
  );
}

/** The picture to paint over: the first image, when it is a downloaded still picture. */
function pictureOf(
  detail: ReturnType<typeof useImageDetail>['data'] | null,
  mediaUrl: ReturnType<typeof useClient>['mediaUrl'],
) {
  if (!detail || detail.kind !== 'image' || detail.downloadState !== 'done' || !detail.relPath) {
    return null;
  }
  return {
    src: mediaUrl(detail.relPath, 'image', detail),
    alt: altOf(detail),
    size: detail.width && detail.height ? { width: detail.width, height: detail.height } : null,
  };
}

/** The tools' commands on the layer; the toolbar's buttons and the keys share them. */
function useToolCommands(
  layer: MaskLayer | null,
  setBrush: (patch: Partial<BrushSettings>) => void,
  toggleMask: () => void,
) {
  return useMemo(
    () => ({
      setBrush,
      invert: () => layer?.invert(),
      clear: () => layer?.clear(),
      undo: () => layer?.undo(),
      redo: () => layer?.redo(),
      toggleMask,
    }),
    [layer, setBrush, toggleMask],
  );
}

/**
 * Keys pressed while the focus fell to the page (the focused button went disabled: Save once
 * the mask is undone) still go to the editor, as they would in any editor window.
 */
function useKeysWithoutFocus(onKey: (event: KeyboardEvent) => void): void {
  const latest = useRef(onKey);
  useEffect(() => {
    latest.current = onKey;
  });
  useEffect(() => {
    const lost = (event: KeyboardEvent) => {
      if (document.activeElement === null || document.activeElement === document.body) {
        latest.current(event);
      }
    };
    document.addEventListener('keydown', lost);
    return () => document.removeEventListener('keydown', lost);
  }, []);
}

/** Space held (outside a field or a button): a drag moves the view, as in image editors. */
function useSpaceHeld(): [boolean, (held: boolean) => void] {
  const [held, setHeld] = useState(false);
  const set = useCallback((value: boolean) => setHeld(value), []);
  useEffect(() => {
    if (!held) return;
    const release = (event: KeyboardEvent) => event.key === ' ' && setHeld(false);
    const lost = () => setHeld(false);
    window.addEventListener('keyup', release);
    window.addEventListener('blur', lost);
    return () => {
      window.removeEventListener('keyup', release);
      window.removeEventListener('blur', lost);
    };
  }, [held]);
  return [held, set];
}

const isControl = (target: EventTarget | null) =>
  Boolean((target as Element | null)?.closest?.('button, a, summary'));

/** Within 1 %, as the service counts the same shape. */
function sameShape(a: { width: number; height: number }, b: { width: number; height: number }) {
  return Math.abs(a.width / a.height / (b.width / b.height) - 1) <= 0.01;
}

/** Saves the bytes as a file: the browser's download, the desktop's save dialog. */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // (the download has the bytes once it started)
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
