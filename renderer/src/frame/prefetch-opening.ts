import type { Connection } from '../App.tsx';
import { prefetchGalleryList } from '../screens/gallery/gallery-queries.ts';
import { DEFAULT_VIEW } from '../screens/gallery/gallery-view.ts';
import type { ScreenId } from './navigation.ts';

/**
 * Starts the opening screen's first requests before React renders it: the gallery's list (its
 * ids, first screen of details and thumbnails) leaves as the window opens and is answered
 * first, not after the whole frame's first render; the screen's own query joins it in flight.
 */
export function prefetchOpeningScreen({ client, data }: Connection, screen: ScreenId): void {
  if (screen === 'gallery') prefetchGalleryList(data, DEFAULT_VIEW, client);
}
