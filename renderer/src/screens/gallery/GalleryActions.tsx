import { MAX_EDIT_IMAGES } from '../../../../shared/api/schemas/edits.ts';
import { formatCount, plural } from '../../format.ts';
import { EMPTY_SELECTION, selectAll, selectedInOrder } from '../../views/selection.ts';
import { galleryUi } from './gallery-state.ts';
import { useGalleryList } from './gallery-queries.ts';

export interface SelectionCommands {
  favorite(ids: readonly number[], favorite: boolean): void;
  retry(ids: readonly number[]): void;
  remove(ids: readonly number[]): void;
  exportIds(ids: readonly number[]): void;
  exportView(): void;
  compare(ids: readonly number[]): void;
  edit(ids: readonly number[]): void;
}

/**
 * What can be done to the selection, or to everything the view matches: select all, favourite,
 * compare, edit, export, retry downloads, delete.
 */
export function GalleryActions({ commands }: { commands: SelectionCommands }) {
  const selection = galleryUi.useSelect((s) => s.selection);
  const setSelection = galleryUi.useSelect((s) => s.setSelection);
  const view = galleryUi.useSelect((s) => s.view);
  const { data: list } = useGalleryList(view);
  const ids = list?.ids ?? [];
  const total = list?.total ?? 0;
  // every id of the view, loaded or not: the list query loads them all
  const all = list?.complete ? ids : null;
  const show = view.show;
  const n = selection.selected.size;
  const chosen = () => selectedInOrder(selection, ids);
  const failedView = show === 'failed' || show === 'expired';

  return (
    <div className="gallery-actions" role="toolbar" aria-label="Selected images">
      <span className="bulk-count" aria-live="polite">
        {n > 0 && `${formatCount(n)} selected`}
      </span>
      {n < total && (
        <button
          type="button"
          className="ghost small"
          disabled={all === null}
          onClick={() => all && setSelection(selectAll(all))}
        >
          Select all {formatCount(total)}
        </button>
      )}
      {n > 0 && (
        <>
          <button
            type="button"
            className="ghost small"
            onClick={() => setSelection(EMPTY_SELECTION)}
          >
            Clear
          </button>
          <span className="bulk-sep" aria-hidden />
          <button
            type="button"
            className="ghost small"
            onClick={() => commands.favorite(chosen(), true)}
          >
            ★ Favourite
          </button>
          <button
            type="button"
            className="ghost small"
            onClick={() => commands.favorite(chosen(), false)}
          >
            Unfavourite
          </button>
          <button
            type="button"
            className="ghost small"
            disabled={n < 2 || n > 4}
            title={n < 2 || n > 4 ? 'Select two to four images to compare them' : undefined}
            onClick={() => commands.compare(chosen())}
          >
            Compare
          </button>
          <button
            type="button"
            className="ghost small"
            disabled={n > MAX_EDIT_IMAGES}
            title={
              n > MAX_EDIT_IMAGES
                ? `One edit takes at most ${MAX_EDIT_IMAGES} images`
                : 'Edit them with one prompt (E)'
            }
            onClick={() => commands.edit(chosen())}
          >
            Edit…
          </button>
          <button
            type="button"
            className="ghost small"
            onClick={() => commands.exportIds(chosen())}
          >
            Export…
          </button>
          {(failedView || show === 'all') && (
            <button type="button" className="ghost small" onClick={() => commands.retry(chosen())}>
              Retry {plural(n, 'download')}
            </button>
          )}
          <button
            type="button"
            className="ghost small danger-text"
            onClick={() => commands.remove(chosen())}
          >
            Delete…
          </button>
        </>
      )}
      <span className="gallery-actions-spacer" />
      {n === 0 && failedView && total > 0 && (
        <button
          type="button"
          className="small"
          disabled={all === null}
          onClick={() => all && commands.retry(all)}
        >
          Retry {plural(total, 'download')}
        </button>
      )}
      {n === 0 && total > 0 && !failedView && (
        <button type="button" className="ghost small" onClick={commands.exportView}>
          Export {plural(total, 'image')}…
        </button>
      )}
    </div>
  );
}
