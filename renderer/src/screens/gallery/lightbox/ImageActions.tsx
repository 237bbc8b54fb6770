import type { Client } from '../../../api/client.ts';
import { copyWithToast } from './MetadataPanel.tsx';
import { parametersJson, type ImageDetail } from './rerun-draft.ts';

/**
 * What can be done to one image. The folder and the system viewer only on the desktop: a
 * browser cannot reach them (the service answers `unsupported` there).
 */
export function ImageActions({
  detail,
  client,
  onRerun,
  onDelete,
  onFailure,
}: {
  detail: ImageDetail;
  client: Client;
  onRerun(): void;
  onDelete(): void;
  onFailure(what: string): (error: unknown) => void;
}) {
  const { api, host } = client;
  return (
    <div className="lb-actions" role="group" aria-label="Actions">
      <button
        type="button"
        className="ghost"
        onClick={() => void copyWithToast(detail.prompt, 'Prompt')}
      >
        Copy prompt
      </button>
      <button
        type="button"
        className="ghost"
        onClick={() => void copyWithToast(parametersJson(detail), 'Parameters')}
      >
        Copy parameters
      </button>
      {host === 'desktop' && (
        <>
          <button
            type="button"
            className="ghost"
            disabled={!detail.path}
            onClick={() => void api.images.reveal({ id: detail.id }).catch(onFailure('show it'))}
          >
            Show in folder
          </button>
          <button
            type="button"
            className="ghost"
            disabled={!detail.path}
            onClick={() =>
              void api.images.openWithViewer({ id: detail.id }).catch(onFailure('open it'))
            }
          >
            Open with viewer
          </button>
        </>
      )}
      <button type="button" className="ghost" onClick={onRerun}>
        Re-run
      </button>
      <button type="button" className="ghost lb-danger" onClick={onDelete}>
        Delete
      </button>
    </div>
  );
}
