import { useState } from 'react';
import type { Client } from '../../../api/client.ts';
import { useClient } from '../../../api/client-context.ts';
import { errorMessage } from '../../../data/error-message.ts';
import { useImageDetails } from '../gallery-queries.ts';
import { commandOf, type LightboxCommand } from './keys.ts';
import type { ImageDetail } from './rerun-draft.ts';
import { SliderDivider } from './SliderDivider.tsx';
import { panKeys, ZoomControls, useZoom, type Zoom } from './ZoomControls.tsx';
import { ZoomView, type Layer } from './ZoomView.tsx';
import { LightboxFrame, LightboxToolbar } from './LightboxFrame.tsx';
import './lightbox.css';

export interface CompareProps {
  /** 2 to 4 images. */
  ids: readonly number[];
  onClose(): void;
  /** Two images open one over the other (an edit's before and after). */
  slider?: boolean;
}

const LETTERS = ['A', 'B', 'C', 'D'];

type Loaded = { detail: ImageDetail } | { error: string } | undefined;

/** Each image's details, in the order of `ids` (they follow the images' events). */
function useDetails(ids: readonly number[]): Loaded[] {
  return useImageDetails(ids).map((query) =>
    query.data
      ? { detail: query.data }
      : query.error
        ? { error: errorMessage(query.error) }
        : undefined,
  );
}

/** Model, pixels and seed: what tells two pictures of one prompt apart. */
const metaOf = (detail: ImageDetail) => {
  const pixels = detail.width && detail.height ? ` · ${detail.width}×${detail.height}` : '';
  const seed = detail.seed === null ? '' : ` · seed ${detail.seed}`;
  return `${detail.model}${pixels}${seed}`;
};

/** The prompt, cut where a label would stop being read. */
const shortPrompt = (prompt: string) => (prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt);

/** What a pane's label says: its letter, prompt, model and pixels. */
const captionOf = (letter: string, loaded: Loaded) => {
  if (!loaded || 'error' in loaded) return letter;
  const { detail } = loaded;
  return `${letter} · ${shortPrompt(detail.prompt)} · ${metaOf(detail)}`;
};

/** A pane's caption: the letter as a badge, the prompt (cut to the room), then the model. */
function Caption({ letter, loaded }: { letter: string; loaded: Loaded }) {
  const detail = loaded && 'detail' in loaded ? loaded.detail : null;
  return (
    <span className="cmp-label">
      <span className="cmp-letter">{letter}</span>
      {detail && (
        <>
          <span className="cmp-prompt" title={detail.prompt}>
            {detail.prompt}
          </span>
          <span className="cmp-meta">{metaOf(detail)}</span>
        </>
      )}
    </span>
  );
}

/** A zoomable layer of a downloaded picture, or null (still loading, failed, a video). */
function layerOf(loaded: Loaded, mediaUrl: Client['mediaUrl']): Layer | null {
  if (!loaded || 'error' in loaded) return null;
  const { detail } = loaded;
  if (detail.kind !== 'image' || detail.downloadState !== 'done' || !detail.relPath) return null;
  return {
    src: mediaUrl(detail.relPath, 'image', detail),
    alt: detail.prompt.slice(0, 160),
    size: detail.width && detail.height ? { width: detail.width, height: detail.height } : null,
    placeholder: mediaUrl(detail.relPath, 'thumb', detail),
  };
}

/** Two to four images side by side under one zoom and pan; two also one over the other. */
export function Compare({ ids, onClose, slider: sliderFirst }: CompareProps): React.JSX.Element {
  const { mediaUrl } = useClient();
  const shown = ids.slice(0, 4);
  const details = useDetails(shown);
  const zoom = useZoom();
  const [slider, setSlider] = useState(sliderFirst ?? false);
  const [divider, setDivider] = useState(0.5);
  const layers = details.map((d) => layerOf(d, mediaUrl));
  const canSlide = shown.length === 2 && layers.every((l) => l !== null);
  const sliding = slider && canSlide;

  return (
    <LightboxFrame
      className="lightbox compare"
      onClose={onClose}
      onKeyDown={(event) => {
        const command = commandOf(event);
        const act = command ? zoomKeys(zoom)[command] : undefined;
        if (!act) return;
        event.preventDefault();
        event.stopPropagation();
        act();
      }}
    >
      <LightboxToolbar
        title={`Compare ${shown.length} images`}
        description="Zoom and pan move every image alike. Escape closes."
        label="Compare tools"
      >
        <ZoomControls zoom={zoom} />
        {shown.length === 2 && (
          <>
            <span className="lb-sep" aria-hidden="true" />
            <button
              type="button"
              className={`ghost lb-text${sliding ? ' lb-on' : ''}`}
              aria-pressed={sliding}
              disabled={!canSlide}
              onClick={() => setSlider((s) => !s)}
            >
              Slider
            </button>
          </>
        )}
      </LightboxToolbar>
      {sliding ? (
        <figure
          className="cmp-slider"
          aria-label={`${captionOf('A', details[0])} over ${captionOf('B', details[1])}`}
        >
          <div className="cmp-view">
            <ZoomView
              layers={[layers[0]!, { ...layers[1]!, clipLeft: divider }]}
              state={zoom.state}
              onStateChange={zoom.setState}
              onGeometry={zoom.setGeometry}
            >
              <SliderDivider value={divider} onChange={setDivider} />
            </ZoomView>
          </div>
          <figcaption className="cmp-caption">
            <Caption letter="A" loaded={details[0]} />
            <Caption letter="B" loaded={details[1]} />
          </figcaption>
        </figure>
      ) : (
        <div className={`cmp-panes cmp-${shown.length}`}>
          {shown.map((id, i) => {
            const caption = captionOf(LETTERS[i]!, details[i]);
            return (
              <figure key={id} className="cmp-pane" aria-label={caption}>
                <div className="cmp-view">
                  <Pane
                    loaded={details[i]}
                    layer={layers[i] ?? null}
                    zoom={zoom}
                    // one pane's sizes drive the keys' zoom; the others follow by state
                    reportGeometry={i === 0}
                    mediaUrl={mediaUrl}
                  />
                </div>
                <figcaption className="cmp-caption">
                  <Caption letter={LETTERS[i]!} loaded={details[i]} />
                </figcaption>
              </figure>
            );
          })}
        </div>
      )}
    </LightboxFrame>
  );
}

function zoomKeys(zoom: Zoom): Partial<Record<LightboxCommand, () => void>> {
  return { 'zoom-in': zoom.zoomIn, 'zoom-out': zoom.zoomOut, fit: zoom.fit, ...panKeys(zoom) };
}

function Pane({
  loaded,
  layer,
  zoom,
  reportGeometry,
  mediaUrl,
}: {
  loaded: Loaded;
  layer: Layer | null;
  zoom: Zoom;
  reportGeometry: boolean;
  mediaUrl: Client['mediaUrl'];
}) {
  if (!loaded) {
    return (
      <p className="lb-message muted" role="status">
        Loading…
      </p>
    );
  }
  if ('error' in loaded) {
    return (
      <p className="lb-message" role="alert">
        Could not load this image: {loaded.error}
      </p>
    );
  }
  const { detail } = loaded;
  if (detail.kind === 'video' && detail.relPath && detail.downloadState === 'done') {
    return <video className="lb-video" controls src={mediaUrl(detail.relPath, 'image', detail)} />;
  }
  if (!layer) {
    return (
      <p className="lb-message muted">
        {detail.downloadState === 'failed'
          ? `Failed to download: ${detail.failureReason ?? detail.failureCode ?? 'no reason given'}`
          : `Not downloaded yet (${detail.downloadState}).`}
      </p>
    );
  }
  return (
    <ZoomView
      layers={[layer]}
      state={zoom.state}
      onStateChange={zoom.setState}
      onGeometry={reportGeometry ? zoom.setGeometry : undefined}
    />
  );
}
