import type { Client } from '../../../api/client.ts';
import type { ImageDetail } from './rerun-draft.ts';
import type { Zoom } from './ZoomControls.tsx';
import { ZoomView } from './ZoomView.tsx';

/** The alt text of a picture: its prompt, cut where a screen reader would stop listening. */
export const altOf = (detail: ImageDetail) =>
  detail.prompt.length > 160 ? `${detail.prompt.slice(0, 159)}…` : detail.prompt;

/** Whether the stage shows a zoomable picture (the zoom controls work only then). */
export const showsPicture = (detail: ImageDetail | null) =>
  detail?.kind === 'image' && detail.downloadState === 'done' && detail.relPath !== null;

/** What the lightbox shows of one image: the picture, the video, or why there is none. */
export function LightboxStage({
  detail,
  error,
  zoom,
  mediaUrl,
  onReload,
  onRetryDownload,
  onVideoSize,
}: {
  detail: ImageDetail | null;
  error: string | null;
  zoom: Zoom;
  mediaUrl: Client['mediaUrl'];
  onReload(): void;
  onRetryDownload(): void;
  /** A video's pixels, once the player has read them. */
  onVideoSize?(width: number, height: number): void;
}) {
  if (error) {
    return (
      <div className="lb-message" role="alert">
        <p>Could not load this image: {error}</p>
        <button type="button" onClick={onReload}>
          Try again
        </button>
      </div>
    );
  }
  if (!detail) {
    return (
      <p className="lb-message muted" role="status">
        Loading…
      </p>
    );
  }
  if (detail.downloadState === 'failed') {
    return (
      <div className="lb-message lb-failed" role="group" aria-label="Download failed">
        <p className="lb-failed-title">This image failed to download.</p>
        <p>{detail.failureReason ?? detail.failureCode ?? 'No reason was given.'}</p>
        <button type="button" onClick={onRetryDownload}>
          Retry download
        </button>
      </div>
    );
  }
  if (detail.downloadState !== 'done' || detail.relPath === null) {
    return (
      <p className="lb-message muted" role="status">
        Not downloaded yet ({detail.downloadState}).
      </p>
    );
  }
  const src = mediaUrl(detail.relPath, 'image', detail);
  if (detail.kind === 'video') {
    return (
      <video
        className="lb-video"
        controls
        src={src}
        aria-label={altOf(detail)}
        onLoadedMetadata={(event) => {
          const { videoWidth, videoHeight } = event.currentTarget;
          if (videoWidth > 0) onVideoSize?.(videoWidth, videoHeight);
        }}
      />
    );
  }
  const size =
    detail.width && detail.height ? { width: detail.width, height: detail.height } : null;
  return (
    <ZoomView
      layers={[
        { src, alt: altOf(detail), size, placeholder: mediaUrl(detail.relPath, 'thumb', detail) },
      ]}
      state={zoom.state}
      onStateChange={zoom.setState}
      onGeometry={zoom.setGeometry}
    />
  );
}
