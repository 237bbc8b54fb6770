import { formatCount, plural } from '../../format.ts';
import { useAppStore } from '../../store/react.ts';
import { EMPTY_SELECTION, selectAll, selectedInOrder } from '../../views/selection.ts';
import { runAction } from '../../views/run-action.ts';

export interface SelectionCommands {
  favorite(ids: readonly number[], favorite: boolean): void;
  retry(ids: readonly number[]): void;
  remove(ids: readonly number[]): void;
  exportIds(ids: readonly number[]): void;
  exportView(): void;
  compare(ids: readonly number[]): void;
}

/**
 * What can be done to the selection, or to everything the view matches: select all, favourite,
 * compare, export, retry downloads, delete.
 */
export function GalleryActions({ commands }: { commands: SelectionCommands }) {
  const selection = useAppStore((s) => s.gallerySelection);
  const setSelection = useAppStore((s) => s.setGallerySelection);
  const ids = useAppStore((s) => s.galleryIds);
  const total = useAppStore((s) => s.galleryTotal) ?? 0;
  const show = useAppStore((s) => s.galleryView.show);
  const loadAll = useAppStore((s) => s.loadAllGalleryIds);
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
          onClick={() => void runAction(async () => setSelection(selectAll(await loadAll())))}
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
          onClick={() => void runAction(async () => commands.retry(await loadAll()))}
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
