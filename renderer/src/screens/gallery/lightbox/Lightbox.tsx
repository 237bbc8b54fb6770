import { useEffect, useState } from 'react';
import { useClient } from '../../../api/client-context.ts';
import { errorMessage } from '../../../data/error-message.ts';
import { formatWhole } from '../../../format.ts';
import { ConfirmDialog, type ConfirmRequest } from '../../../views/ConfirmDialog.tsx';
import type { ImageDetail } from '../../../data/types.ts';
import { useImageDetail, usePrefetchDetails } from '../gallery-queries.ts';
import { InfoIcon } from './icons.tsx';
import { FileActions, ImageActions } from './ImageActions.tsx';
import { commandOf } from './keys.ts';
import { LightboxFrame, LightboxToolbar } from './LightboxFrame.tsx';
import { LightboxStage, showsPicture } from './LightboxStage.tsx';
import { MetadataPanel, type EditLinks } from './MetadataPanel.tsx';
import { useLightboxCommands } from './use-lightbox-commands.ts';
import { useZoom, ZoomControls } from './ZoomControls.tsx';
import './lightbox.css';

export interface LightboxProps {
  /** The current filter's ids in list order, as loaded so far. */
  ids: readonly number[];
  /** Every image the filter matches (ids may still be loading). */
  total: number;
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
  /** Where an edit's details lead (its source, before and after, a picture's edits). */
  links?: EditLinks;
}

/** One image at a time over the gallery, with its zoom, its details and what can be done to it. */
export function Lightbox(props: LightboxProps): React.JSX.Element {
  const { ids, total, index, onClose, links } = props;
  const client = useClient();
  const id = ids[index];
  const query = useImageDetail(id);
  const detail = query.data ?? null;
  const error = query.error ? errorMessage(query.error) : null;
  usePrefetchDetails(
    [ids[index + 1], ids[index - 1]].filter((n) => n !== undefined),
    client.mediaUrl,
  );
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const zoom = useZoom();
  const { reset } = zoom;
  // a video's pixels are known only to the player that read its header
  const [played, setPlayed] = useState<{ id: number; width: number; height: number } | null>(null);
  useEffect(() => reset(), [id, reset]);
  const commands = useLightboxCommands({ ...props, detail, zoom, confirm: setConfirm });
  const { infoOpen } = commands;
  // (its place among the gallery's images and videos, named by what it is)
  const noun = detail?.kind === 'video' ? 'Video' : 'Image';
  const title = `${noun} ${formatWhole(index + 1)} of ${formatWhole(Math.max(total, ids.length))}`;

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
        commands.run[command]();
      }}
    >
      <LightboxToolbar
        title={title}
        description="Arrow keys step through the gallery, F marks a favourite, E edits, I shows the details, plus and minus zoom, Escape closes."
        label="Image tools"
      >
        <LightboxTools
          index={index}
          count={ids.length}
          zoom={zoom}
          detail={detail}
          infoOpen={infoOpen}
          commands={commands}
        />
      </LightboxToolbar>
      <div className="lb-body">
        <div className="lb-stage">
          <LightboxStage
            detail={detail}
            error={error}
            zoom={zoom}
            mediaUrl={client.mediaUrl}
            onReload={() => void query.refetch()}
            onRetryDownload={commands.retryDownload}
            onVideoSize={(width, height) => detail && setPlayed({ id: detail.id, width, height })}
          />
        </div>
        {infoOpen && (
          <aside className="lb-info" aria-label="Image details">
            {detail ? (
              <>
                <ImageActions
                  seeded={detail.seed !== null}
                  onRerun={commands.rerun}
                  onMoreLikeThis={commands.moreLikeThis}
                  onEdit={showsPicture(detail) ? commands.edit : null}
                  onDelete={commands.askDelete}
                />
                <MetadataPanel
                  detail={detail}
                  played={played?.id === detail.id ? played : null}
                  fileActions={<FileActions detail={detail} host={client.host} />}
                  links={links}
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

/** Step, zoom, star and details: the lightbox's toolbar buttons. */
function LightboxTools({
  index,
  count,
  zoom,
  detail,
  infoOpen,
  commands,
}: {
  index: number;
  count: number;
  zoom: ReturnType<typeof useZoom>;
  detail: ImageDetail | null;
  infoOpen: boolean;
  commands: ReturnType<typeof useLightboxCommands>;
}) {
  const { go } = commands;
  return (
    <>
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
        disabled={index >= count - 1}
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
        disabled={!detail || commands.favoriteBusy}
        onClick={commands.toggleFavorite}
      >
        {detail?.favorite ? '★' : '☆'}
      </button>
      <button
        type="button"
        className={`ghost lb-icon${infoOpen ? ' lb-on' : ''}`}
        aria-label="Details"
        aria-pressed={infoOpen}
        title="Details (I)"
        onClick={commands.run.info}
      >
        <InfoIcon />
      </button>
    </>
  );
}
