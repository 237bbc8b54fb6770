import { useEffect, useState } from 'react';
import type { ImageDetail } from '../../../data/types.ts';
import type { ConfirmRequest } from '../../../views/ConfirmDialog.tsx';
import { useOpenInCompose } from '../../compose/use-open-in-compose.tsx';
import { editUi } from '../../edit/edit-state.ts';
import { useDeleteImages, useRetryImageDownloads, useSetFavorite } from '../gallery-actions.ts';
import type { LightboxCommand } from './keys.ts';
import { showsPicture } from './LightboxStage.tsx';
import { moreLikeThisDraft } from './more-like-this.ts';
import { rerunDraft } from './rerun-draft.ts';
import { panKeys, type Zoom } from './ZoomControls.tsx';

/**
 * What the lightbox does, by key or button, each through the gallery's one action for it;
 * the events that follow (images.changed, images.deleted) bring the picture, its star and the
 * list up to date.
 */
export function useLightboxCommands(options: {
  ids: readonly number[];
  index: number;
  detail: ImageDetail | null;
  zoom: Zoom;
  onIndexChange(index: number): void;
  onClose(): void;
  confirm(request: ConfirmRequest): void;
}) {
  const { ids, index, detail, zoom, onIndexChange, onClose, confirm } = options;
  const [infoOpen, setInfoOpen] = useState(true);
  const favorite = useSetFavorite();
  const remove = useDeleteImages();
  const retry = useRetryImageDownloads();
  const openInCompose = useOpenInCompose(confirm);
  const openEditor = editUi.useSelect((s) => s.open);

  // a deleted image leaves the list: the next one takes its place, or the lightbox closes
  useEffect(() => {
    if (ids.length === 0) onClose();
    else if (index >= ids.length) onIndexChange(ids.length - 1);
  }, [ids.length, index, onClose, onIndexChange]);

  const go = (next: number) => {
    const clamped = Math.max(0, Math.min(ids.length - 1, next));
    if (clamped !== index && ids.length > 0) onIndexChange(clamped);
  };
  const toggleFavorite = () => {
    if (detail) void favorite.run({ ids: [detail.id], favorite: !detail.favorite });
  };
  const askDelete = () => {
    const id = ids[index];
    if (id === undefined) return;
    confirm({
      title: 'Delete this image?',
      body:
        'Its file goes to the system trash (deleted outright where there is none), with its ' +
        'thumbnail; it leaves the gallery.',
      confirmLabel: 'Delete',
      danger: true,
      onConfirm: () => void remove.run([id]),
    });
  };
  const rerun = () => {
    // closed once the draft is in Compose: the question, if any, is the lightbox's own dialog
    if (detail)
      openInCompose(rerunDraft(detail), 'this image’s prompt, parameters and seed', onClose);
  };
  const moreLikeThis = () => {
    if (detail)
      openInCompose(moreLikeThisDraft(detail), 'this image’s prompt with new seeds', onClose);
  };
  // the editor opens over the lightbox: closing it comes back here
  const edit = () => {
    if (showsPicture(detail)) openEditor([detail!.id]);
  };
  const retryDownload = () => {
    if (detail) void retry.run([detail.id]);
  };

  const run: Record<LightboxCommand, () => void> = {
    previous: () => go(index - 1),
    next: () => go(index + 1),
    first: () => go(0),
    last: () => go(ids.length - 1),
    favorite: toggleFavorite,
    'zoom-in': zoom.zoomIn,
    'zoom-out': zoom.zoomOut,
    fit: zoom.fit,
    info: () => setInfoOpen((open) => !open),
    delete: askDelete,
    edit,
    ...panKeys(zoom),
  };
  return {
    run,
    go,
    infoOpen,
    toggleFavorite,
    askDelete,
    rerun,
    edit,
    moreLikeThis,
    retryDownload,
    favoriteBusy: favorite.disabled,
  };
}
