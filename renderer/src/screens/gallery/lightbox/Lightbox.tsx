import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useClient } from '../../../api/client-context.ts';
import { formatWhole } from '../../../format.ts';
import { navigate } from '../../../frame/navigation.ts';
import { errorMessage } from '../../../store/error-message.ts';
import { useAppStore } from '../../../store/react.ts';
import { ConfirmDialog, type ConfirmRequest } from '../../../views/ConfirmDialog.tsx';
import { InfoIcon } from './icons.tsx';
import { commandOf, type LightboxCommand } from './keys.ts';
import { FileActions, ImageActions } from './ImageActions.tsx';
import { LightboxStage, showsPicture } from './LightboxStage.tsx';
import { MetadataPanel } from './MetadataPanel.tsx';
import { rerunDraft } from './rerun-draft.ts';
import { useImageDetail } from './use-image-detail.ts';
import { panKeys, ZoomControls, useZoom } from './ZoomControls.tsx';
import { LightboxFrame, LightboxToolbar } from './LightboxFrame.tsx';
import './lightbox.css';

export interface LightboxProps {
  /** The current filter's ids in list order, as loaded so far. */
  ids: readonly number[];
  /** Every image the filter matches (ids may still be loading). */
  total: number;
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
  /** So the grid's tiles follow. */
  onFavoriteChanged(id: number, favorite: boolean): void;
  onDeleted(ids: readonly number[]): void;
  /** The details panel shown at first (I toggles it); shown unless told. */
  initialInfoOpen?: boolean;
}

/** One image at a time over the gallery, with its zoom, its details and what can be done to it. */
export function Lightbox(props: LightboxProps): React.JSX.Element {
  const { ids, total, index, onIndexChange, onClose } = props;
  const client = useClient();
  const { api } = client;
  const editDraft = useAppStore((s) => s.editDraft);
  const id = ids[index];
  const neighbours = [ids[index + 1], ids[index - 1]].filter((n) => n !== undefined);
  const { detail, error, update, reload } = useImageDetail(id, neighbours);
  const [infoOpen, setInfoOpen] = useState(props.initialInfoOpen ?? true);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const zoom = useZoom();
  const { reset } = zoom;

  useEffect(() => reset(), [id, reset]);

  const go = (next: number) => {
    const clamped = Math.max(0, Math.min(ids.length - 1, next));
    if (clamped !== index && ids.length > 0) onIndexChange(clamped);
  };

  const fail = (what: string) => (e: unknown) =>
    void toast.error(`Could not ${what}: ${errorMessage(e)}`);

  async function toggleFavorite() {
    if (!detail) return;
    const favorite = !detail.favorite;
    update({ ...detail, favorite });
    try {
      await api.images.setFavorite({ ids: [detail.id], favorite });
      props.onFavoriteChanged(detail.id, favorite);
    } catch (e) {
      update(detail);
      fail(favorite ? 'mark it a favourite' : 'unmark the favourite')(e);
    }
  }

  async function remove(target: number) {
    try {
      const report = await api.images.delete({ ids: [target] });
      toast.success(report.trashed > 0 ? 'Moved to the trash' : 'Deleted');
      props.onDeleted([target]);
      const left = ids.length - 1;
      if (left <= 0) onClose();
      else if (index >= left) onIndexChange(left - 1);
    } catch (e) {
      fail('delete the image')(e);
    }
  }

  function askDelete() {
    if (id === undefined) return;
    setConfirm({
      title: 'Delete this image?',
      body:
        'Its file goes to the system trash (deleted outright where there is none), with its ' +
        'thumbnail; it leaves the gallery.',
      confirmLabel: 'Delete',
      danger: true,
      onConfirm: () => void remove(id),
    });
  }

  function rerun() {
    if (!detail) return;
    editDraft(rerunDraft(detail));
    toast.success('Compose holds this image’s prompt and parameters');
    onClose();
    navigate('compose');
  }

  async function retryDownload() {
    if (!detail) return;
    try {
      const report = await api.images.retryDownloads({ ids: [detail.id] });
      toast.success(
        report.queued > 0
          ? 'Download queued again (no new generation)'
          : 'Nothing to retry: the download is no longer failed',
      );
      reload();
    } catch (e) {
      fail('retry the download')(e);
    }
  }

  const run: Record<LightboxCommand, () => void> = {
    previous: () => go(index - 1),
    next: () => go(index + 1),
    first: () => go(0),
    last: () => go(ids.length - 1),
    favorite: () => void toggleFavorite(),
    'zoom-in': zoom.zoomIn,
    'zoom-out': zoom.zoomOut,
    fit: zoom.fit,
    info: () => setInfoOpen((open) => !open),
    delete: askDelete,
    ...panKeys(zoom),
  };

  const shownTotal = Math.max(total, ids.length);
  const title = `Image ${formatWhole(index + 1)} of ${formatWhole(shownTotal)}`;

  return (
    <LightboxFrame
      className={`lightbox${infoOpen ? ' lb-info-open' : ''}`}
      onClose={onClose}
      onKeyDown={(event) => {
        if (confirm) return;
        const command = commandOf(event);
        if (!command) return;
        // the gallery's own keys (on the document) must not act behind the lightbox
        event.preventDefault();
        event.stopPropagation();
        run[command]();
      }}
    >
      <LightboxToolbar
        title={title}
        description="Arrow keys step through the gallery, F marks a favourite, I shows the details, plus and minus zoom, Escape closes."
        label="Image tools"
      >
        <button
          type="button"
          className="ghost lb-icon"
          aria-label="Previous image"
          title="Previous (←)"
          disabled={index <= 0}
          onClick={() => go(index - 1)}
        >
          ‹
        </button>
        <button
          type="button"
          className="ghost lb-icon"
          aria-label="Next image"
          title="Next (→)"
          disabled={index >= ids.length - 1}
          onClick={() => go(index + 1)}
        >
          ›
        </button>
        <span className="lb-sep" aria-hidden="true" />
        <ZoomControls zoom={zoom} disabled={!showsPicture(detail)} />
        <span className="lb-sep" aria-hidden="true" />
        <button
          type="button"
          className={`ghost lb-icon lb-favorite${detail?.favorite ? ' lb-on' : ''}`}
          aria-label="Favourite"
          aria-pressed={detail?.favorite ?? false}
          title="Favourite (F)"
          disabled={!detail}
          onClick={() => void toggleFavorite()}
        >
          {detail?.favorite ? '★' : '☆'}
        </button>
        <button
          type="button"
          className={`ghost lb-icon${infoOpen ? ' lb-on' : ''}`}
          aria-label="Details"
          aria-pressed={infoOpen}
          title="Details (I)"
          onClick={() => setInfoOpen((open) => !open)}
        >
          <InfoIcon />
        </button>
      </LightboxToolbar>
      <div className="lb-body">
        <div className="lb-stage">
          <LightboxStage
            detail={detail}
            error={error}
            zoom={zoom}
            mediaUrl={client.mediaUrl}
            onReload={reload}
            onRetryDownload={() => void retryDownload()}
          />
        </div>
        {infoOpen && (
          <aside className="lb-info" aria-label="Image details">
            {detail ? (
              <>
                <ImageActions onRerun={rerun} onDelete={askDelete} />
                <MetadataPanel
                  detail={detail}
                  fileActions={<FileActions detail={detail} client={client} onFailure={fail} />}
                />
              </>
            ) : (
              <p className="muted">{error ? 'No details.' : 'Loading…'}</p>
            )}
          </aside>
        )}
      </div>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </LightboxFrame>
  );
}
