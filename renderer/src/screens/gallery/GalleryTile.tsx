import { memo, useState } from 'react';
import { useClient } from '../../api/client-context.ts';
import type { ImageSummary } from '../../data/types.ts';
import { useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import { formatSize } from '../../format.ts';
import { useImage } from './gallery-queries.ts';
import { tileThumbnailPath } from './first-thumbnails.ts';
import { EXPIRED_CODE } from './gallery-view.ts';
import { highlight, type searchTerms } from './highlight.ts';
import { pictureBox, type TileDisplay } from './tile-display.ts';
import { TileThumbnail } from './TileThumbnail.tsx';

export interface TileActions {
  onClick(id: number, index: number, event: React.MouseEvent): void;
  onOpen(index: number): void;
  onFavorite(id: number, favorite: boolean): void;
  onRetry(id: number): void;
  onGenerateAgain(id: number): void;
  /** The tile's menu, at the pointer. */
  onMenu(id: number, index: number, at: { x: number; y: number }): void;
}

interface TileProps {
  id: number | undefined;
  index: number;
  size: number;
  /** The search's words when captions show (a search is on), else null. */
  captionTerms: ReturnType<typeof searchTerms> | null;
  /** Whole pictures or squares; the prompt and model below each. */
  display: TileDisplay;
  /** The grid rests here: fetch the details if they are not known. */
  wanted: boolean;
  selected: boolean;
  active: boolean;
  actions: TileActions;
}

/**
 * One image of the grid. Memoized and reading only its own summary: a scroll frame or an
 * event redraws the tiles that changed, not the screenful. While the grid flies past, a tile
 * whose summary is not known is a frame only, with no query of its own: a fling over 100,000
 * images would otherwise make a query for each.
 */
export const GalleryTile = memo(function GalleryTile(props: TileProps) {
  const { queries } = useData();
  const known = props.id !== undefined && queries.getQueryData(keys.image(props.id)) !== undefined;
  return props.wanted || known ? (
    <LiveTile {...props} />
  ) : (
    <TileView {...props} image={undefined} />
  );
});

function LiveTile(props: TileProps) {
  const image = useImage(props.id, props.wanted).data ?? undefined;
  return <TileView {...props} image={image} />;
}

function TileView({
  id,
  index,
  size,
  captionTerms,
  display,
  selected,
  active,
  actions,
  image,
}: TileProps & { image: ImageSummary | undefined }) {
  const label = image ? tileLabel(image) : 'Loading';
  const whole = display.shape === 'whole' && image?.downloadState === 'done';
  const box = whole ? pictureBox(image.width, image.height, size) : null;
  return (
    // The grid holds the focus and the keys (aria-activedescendant names the active tile, as
    // the ARIA grid pattern has it): a tile takes clicks only, its keys are the grid's.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/interactive-supports-focus
    <div
      id={id === undefined ? undefined : `image-${id}`}
      role="gridcell"
      aria-selected={selected}
      aria-label={label}
      data-index={index}
      className={`tile${selected ? ' selected' : ''}${active ? ' active' : ''}${whole ? ' whole' : ''}`}
      style={{ width: size }}
      onClick={id === undefined ? undefined : (event) => actions.onClick(id, index, event)}
      onDoubleClick={() => actions.onOpen(index)}
      onContextMenu={
        id === undefined
          ? undefined
          : (event) => {
              event.preventDefault();
              actions.onMenu(id, index, { x: event.clientX, y: event.clientY });
            }
      }
    >
      <div className="tile-frame" style={{ height: size }}>
        <div className="tile-picture" style={box ?? undefined}>
          {image ? <TileBody image={image} actions={actions} /> : <div className="tile-skeleton" />}
          {selected && (
            <span className="tile-check" aria-hidden>
              ✓
            </span>
          )}
          {image && image.downloadState === 'done' && (
            <button
              type="button"
              className={`tile-star${image.favorite ? ' on' : ''}`}
              aria-label="Favourite"
              aria-pressed={image.favorite}
              tabIndex={-1}
              onClick={(event) => {
                event.stopPropagation();
                actions.onFavorite(image.id, !image.favorite);
              }}
              onDoubleClick={(event) => event.stopPropagation()}
            >
              {image.favorite ? '★' : '☆'}
            </button>
          )}
        </div>
      </div>
      {image && display.captions ? (
        <TileCaption image={image} terms={captionTerms} />
      ) : (
        image &&
        (captionTerms || image.downloadState !== 'done') && (
          <p className="tile-caption" title={image.prompt}>
            {highlight(image.prompt, captionTerms ?? []).map((segment, i) =>
              segment.match ? <mark key={i}>{segment.text}</mark> : segment.text,
            )}
          </p>
        )
      )}
    </div>
  );
}

/** The captions option: the prompt on one line (the search's words marked), the model below. */
function TileCaption({
  image,
  terms,
}: {
  image: ImageSummary;
  terms: ReturnType<typeof searchTerms> | null;
}) {
  return (
    <div className="tile-caption tile-caption-full" title={image.prompt}>
      <p className="tile-caption-prompt">
        {highlight(image.prompt, terms ?? []).map((segment, i) =>
          segment.match ? <mark key={i}>{segment.text}</mark> : segment.text,
        )}
      </p>
      <p className="tile-caption-model">
        {image.model}
        {image.width && image.height
          ? ` · ${image.width} × ${image.height}`
          : image.size
            ? ` · ${formatSize(image.size)}`
            : ''}
      </p>
    </div>
  );
}

function TileBody({ image, actions }: { image: ImageSummary; actions: TileActions }) {
  const { mediaUrl } = useClient();
  if (image.downloadState === 'failed') {
    const expired = image.failureCode === EXPIRED_CODE;
    return (
      <div className="tile-failed" title={image.failureReason ?? undefined}>
        <p className="tile-failed-title">
          <span aria-hidden>⚠</span> {expired ? 'Link expired' : 'Download failed'}
        </p>
        <p className="tile-failed-reason">{plainReason(image)}</p>
        <div className="tile-failed-actions">
          <button
            type="button"
            className="ghost small"
            onClick={(event) => {
              event.stopPropagation();
              actions.onRetry(image.id);
            }}
          >
            Retry download
          </button>
          {expired && (
            <button
              type="button"
              className="ghost small"
              onClick={(event) => {
                event.stopPropagation();
                actions.onGenerateAgain(image.id);
              }}
            >
              Generate again…
            </button>
          )}
        </div>
      </div>
    );
  }
  if (image.downloadState !== 'done' || !image.relPath) {
    return (
      <div className="tile-waiting">
        {image.downloadState === 'downloading' ? 'Downloading…' : 'Waiting to download'}
      </div>
    );
  }
  if (image.kind === 'video') {
    return (
      <>
        <VideoPoster
          video={mediaUrl(image.relPath, 'image', image)}
          poster={image.thumbRelPath ? mediaUrl(image.thumbRelPath, 'thumb', image) : null}
        />
        <span className="tile-badge" aria-hidden>
          ▶ video
        </span>
      </>
    );
  }
  const thumb = tileThumbnailPath(image);
  if (thumb) {
    // keyed: a tile that shows another image starts over (canvas, not the last one's <img>)
    return <TileThumbnail key={thumb} relPath={thumb} owner={image} />;
  }
  // thumbnails are off (Settings): the image itself, scaled down by the browser
  return (
    <img
      className="tile-media"
      src={mediaUrl(image.relPath, 'image', image)}
      alt=""
      loading="lazy"
      decoding="async"
      draggable={false}
    />
  );
}

/**
 * A video's tile: the poster the core made from the gateway's thumbnail, or where there is
 * none, the video's own first frame (the browser decodes it; nothing is kept).
 */
function VideoPoster({ video, poster }: { video: string; poster: string | null }) {
  const [noPoster, setNoPoster] = useState(poster === null);
  if (!noPoster && poster) {
    return (
      <img
        className="tile-media"
        src={poster}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setNoPoster(true)}
      />
    );
  }
  return (
    <video className="tile-media" src={`${video}#t=0.1`} preload="metadata" muted playsInline />
  );
}

/** Why a download failed, in a line a person reads; the gateway's own words are on hover. */
function plainReason(image: ImageSummary): string {
  if (image.failureCode === EXPIRED_CODE) {
    // the picture was made, and billed, before its link was fetched (the service says so too)
    return 'The link expired before the image was saved. It was made and may have been charged.';
  }
  return image.failureReason ?? image.failureCode ?? 'The download did not finish.';
}

/** What a screen reader says for a tile: the prompt, and what is not plain about it. */
export function tileLabel(image: ImageSummary): string {
  const prompt = image.prompt.length > 140 ? `${image.prompt.slice(0, 140)}…` : image.prompt;
  const notes: string[] = [];
  if (image.kind === 'video') notes.push('video');
  if (image.favorite) notes.push('favourite');
  if (image.downloadState === 'failed') {
    notes.push(image.failureCode === EXPIRED_CODE ? 'link expired' : 'download failed');
  } else if (image.downloadState !== 'done') notes.push('not downloaded yet');
  return notes.length > 0 ? `${prompt} (${notes.join(', ')})` : prompt;
}
