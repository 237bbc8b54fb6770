import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from '../../../api/client-context.ts';
import { errorMessage } from '../../../store/error-message.ts';
import type { ImageDetail } from './rerun-draft.ts';

/** How often an image whose download is under way is asked about again. */
export const DOWNLOAD_POLL_MS = 1500;

export interface DetailState {
  detail: ImageDetail | null;
  error: string | null;
  /** After a change made here (favourite), so stepping back shows it. */
  update(detail: ImageDetail): void;
  reload(): void;
}

/**
 * One image's details, and its neighbours' fetched ahead (with their pictures) so stepping
 * through shows each at once. Answers are kept while the view is open.
 */
export function useImageDetail(
  id: number | undefined,
  neighbours: readonly number[] = [],
): DetailState {
  const { api, mediaUrl } = useClient();
  const cache = useRef(new Map<number, Promise<ImageDetail>>());
  const [loaded, setLoaded] = useState<{ id: number; detail: ImageDetail } | null>(null);
  const [failed, setFailed] = useState<{ id: number; error: string } | null>(null);
  const [generation, setGeneration] = useState(0);

  const fetchDetail = useCallback(
    (key: number) => {
      let pending = cache.current.get(key);
      if (!pending) {
        pending = api.images.get({ id: key });
        cache.current.set(key, pending);
        pending.catch(() => cache.current.delete(key));
      }
      return pending;
    },
    [api],
  );

  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    fetchDetail(id).then(
      (detail) => live && setLoaded({ id, detail }),
      (error: unknown) => live && setFailed({ id, error: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [id, fetchDetail, generation]);

  const ahead = neighbours.join(',');
  useEffect(() => {
    if (!loaded || loaded.id !== id) return;
    for (const key of neighbours) {
      fetchDetail(key).then(
        (d) => {
          if (d.relPath && d.kind === 'image' && d.downloadState === 'done') {
            new Image().src = mediaUrl(d.relPath, 'image', d);
          }
        },
        () => undefined, // shown when the person gets there
      );
    }
    // the neighbours' ids as text: a new array of the same ids fetches nothing again
  }, [loaded, id, ahead]);

  // a download under way: asked again until it is written or fails, so the picture appears
  const current = loaded && loaded.id === id ? loaded.detail : null;
  const inFlight = current?.downloadState === 'pending' || current?.downloadState === 'downloading';
  useEffect(() => {
    if (!inFlight || id === undefined) return;
    const timer = setTimeout(() => {
      cache.current.delete(id);
      setGeneration((g) => g + 1);
    }, DOWNLOAD_POLL_MS);
    return () => clearTimeout(timer);
  }, [inFlight, id, current]);

  const update = useCallback((detail: ImageDetail) => {
    cache.current.set(detail.id, Promise.resolve(detail));
    setLoaded({ id: detail.id, detail });
  }, []);
  const reload = useCallback(() => {
    if (id === undefined) return;
    cache.current.delete(id);
    setFailed(null);
    setGeneration((g) => g + 1);
  }, [id]);

  return {
    detail: current,
    error: failed && failed.id === id && !(loaded && loaded.id === id) ? failed.error : null,
    update,
    reload,
  };
}
