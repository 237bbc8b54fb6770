import type { Host } from '../../../api/client.ts';
import { useHostAction } from '../gallery-actions.ts';
import { EditIcon, RerunIcon, TrashIcon } from './icons.tsx';
import type { ImageDetail } from './rerun-draft.ts';

/**
 * What can be done to one image, in one row at the top of its details: make it again (the same
 * seed, or more like it with new seeds), edit it (a picture on disk only), or delete it. Copying
 * sits beside what it copies (MetadataPanel), the file's actions beside the file.
 */
export function ImageActions({
  seeded,
  onRerun,
  onMoreLikeThis,
  onEdit,
  onDelete,
}: {
  /** The image's seed is known: generating again makes the same picture. */
  seeded: boolean;
  onRerun(): void;
  onMoreLikeThis(): void;
  /** Null when the image cannot be edited (a video, not downloaded). */
  onEdit: (() => void) | null;
  onDelete(): void;
}) {
  return (
    <div className="lb-actions" role="group" aria-label="Actions">
      <button
        type="button"
        className="ghost"
        aria-label={seeded ? 'Generate again with the same seed' : 'Generate again'}
        title={
          seeded
            ? 'Its prompt, parameters and seed in Compose'
            : 'Its prompt and parameters in Compose (no seed is known for it)'
        }
        onClick={onRerun}
      >
        <RerunIcon />
        {seeded ? 'Same seed' : 'Again'}
      </button>
      <button
        type="button"
        className="ghost"
        title={`Its prompt and parameters in Compose${seeded ? ', with new seeds' : ''}`}
        onClick={onMoreLikeThis}
      >
        More like this
      </button>
      {onEdit && (
        <button
          type="button"
          className="ghost"
          title="Paint a mask and edit with a prompt (E)"
          onClick={onEdit}
        >
          <EditIcon />
          Edit
        </button>
      )}
      <button type="button" className="ghost lb-danger" title="Delete (Del)" onClick={onDelete}>
        <TrashIcon />
        Delete
      </button>
    </div>
  );
}

/**
 * The file's folder and the system viewer, on the desktop only: a browser cannot reach them (the
 * service answers `unsupported` there).
 */
export function FileActions({ detail, host }: { detail: ImageDetail; host: Host }) {
  const reveal = useHostAction('reveal');
  const open = useHostAction('openWithViewer');
  if (host !== 'desktop') return null;
  return (
    <span className="lb-file-actions">
      <button
        type="button"
        className="ghost lb-small"
        disabled={!detail.path || reveal.disabled}
        onClick={() => void reveal.run(detail.id)}
      >
        Show in folder
      </button>
      <button
        type="button"
        className="ghost lb-small"
        disabled={!detail.path || open.disabled}
        onClick={() => void open.run(detail.id)}
      >
        Open with viewer
      </button>
    </span>
  );
}
