import { useEffect } from 'react';
import { MAX_EDIT_IMAGES } from '../../../../shared/api/schemas/edits.ts';
import { useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import type { ImageSummary } from '../../data/types.ts';
import { formatWhole, plural } from '../../format.ts';
import { selectedInOrder } from '../../views/selection.ts';
import { galleryUi } from './gallery-state.ts';
import type { SelectionCommands } from './GalleryActions.tsx';
import type { GridCommands } from './grid-commands.ts';
import { TileMenu, type MenuItem } from './TileMenu.tsx';

/**
 * The tile menu's items: what can be done to the selection (the tile right-clicked joins it),
 * each with the grid's key for it.
 */
export function SelectionMenu({
  at,
  ids,
  commands,
  onClose,
}: {
  at: { x: number; y: number };
  ids: readonly number[];
  commands: GridCommands & SelectionCommands;
  onClose(): void;
}) {
  const { queries } = useData();
  const selection = galleryUi.useSelect((s) => s.selection);
  const chosen = selectedInOrder(selection, ids);
  const n = chosen.length;
  // the selection went (another filter, a deletion): so does its menu
  useEffect(() => {
    if (n === 0) onClose();
  }, [n, onClose]);
  if (n === 0) return null;
  const summaries = chosen.map((id) => queries.getQueryData<ImageSummary | null>(keys.image(id)));
  const stills = summaries.every((s) => s?.kind === 'image' && s.downloadState === 'done');
  const allFavourite = summaries.every((s) => s?.favorite);
  const items: MenuItem[] = [];
  if (n === 1)
    items.push({ label: 'Open', keys: 'Enter', run: () => commands.open(ids.indexOf(chosen[0]!)) });
  items.push({
    label: n === 1 ? 'Edit…' : `Edit ${formatWhole(n)} images…`,
    keys: 'E',
    disabled: n > MAX_EDIT_IMAGES || (n === 1 && !stills),
    run: () => commands.edit(chosen),
  });
  items.push({
    label: allFavourite ? 'Unfavourite' : 'Favourite',
    keys: 'F',
    run: () => commands.favorite(chosen, !allFavourite),
  });
  if (n >= 2 && n <= 4) items.push({ label: 'Compare', run: () => commands.compare(chosen) });
  items.push({ label: 'Export…', run: () => commands.exportIds(chosen) });
  items.push({ label: 'Delete…', keys: 'Del', danger: true, run: () => commands.remove(chosen) });
  return (
    <TileMenu
      at={at}
      label={n === 1 ? 'Image' : plural(n, 'image')}
      items={items}
      onClose={onClose}
    />
  );
}
