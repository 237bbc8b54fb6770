import type { GatewayState } from '../context.ts';
import { createRandom, seedFrom, type Random } from '../random.ts';
import { RenderCache } from './cache.ts';
import { FileLinks } from './links.ts';
import { renderImage, renderKey, type RenderSpec } from './render.ts';
import { ReceivedEdits } from './received-edits.ts';
import { SourceStore } from './sources.ts';

/** What the image endpoints and the file links of one running simulator share. */
export interface ImageServices {
  links: FileLinks;
  sources: SourceStore;
  cache: RenderCache;
  /** The edits accepted lately, as received (tests read what a client sent). */
  received: ReceivedEdits;
  /** Seeds for requests that name none. Separate from state.random, which drives faults. */
  seeds: Random;
  /** Through the cache: for pictures a link may fetch again (or fetches now). */
  render(spec: RenderSpec): Promise<Buffer>;
  /**
   * Without the cache: for a picture sent once as base64 and never linked. Caching it would
   * only keep it alive long enough to be promoted out of the young generation, which costs
   * more than the cache saves.
   */
  renderOnce(spec: RenderSpec): Promise<Buffer>;
}

const byState = new WeakMap<GatewayState, ImageServices>();

export function imageServices(state: GatewayState): ImageServices {
  let services = byState.get(state);
  if (!services) {
    const sources = new SourceStore();
    const cache = new RenderCache();
    const lookup = (digest: string) => sources.get(digest);
    const forget = (spec: RenderSpec) => {
      if (spec.source) sources.release(spec.source);
      if (spec.mask) sources.release(spec.mask);
    };
    services = {
      links: new FileLinks(state.options.urlTtlMs, forget, state.options.now),
      sources,
      cache,
      received: new ReceivedEdits(),
      seeds: createRandom(seedFrom('image-seeds', state.options.seed)),
      render: (spec) => cache.get(renderKey(spec), () => renderImage(spec, lookup)),
      renderOnce: (spec) => renderImage(spec, lookup),
    };
    byState.set(state, services);
  }
  return services;
}
