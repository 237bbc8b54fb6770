import type { Connection } from '../App.tsx';
import { appInfoQuery, settingsQuery } from '../data/app-queries.ts';
import { holdUntilOpened } from '../data/opening.ts';
import { firstScreenShown } from '../screens/gallery/first-thumbnails.ts';
import { prefetchGalleryList } from '../screens/gallery/gallery-queries.ts';
import { DEFAULT_VIEW } from '../screens/gallery/gallery-view.ts';
import { prefetchBatches } from '../screens/queue/queue-queries.ts';
import type { ScreenId } from './navigation.ts';

/**
 * Starts the opening screen's first requests before React renders it: the gallery's list (its
 * ids, first screen of details and thumbnails) leaves as the window opens and is answered
 * first, not after the whole frame's first render; the screen's own query joins it in flight.
 * What the frame shows from its first paint comes with it (the notices above the screen, which
 * would push the grid down as they came, and the theme); the frame's other reads wait until
 * the gallery's first screen of thumbnails is drawn (data/opening.ts). Settles once what the
 * frame shows from its first paint is in (prefetchQuery never fails).
 */
export function prefetchOpeningScreen(
  { client, data }: Connection,
  screen: ScreenId,
): Promise<unknown> {
  const frame: Array<Promise<unknown>> = [];
  if (screen === 'gallery') {
    prefetchGalleryList(data, DEFAULT_VIEW, client);
    // the batch filter's options widen the toolbar, which would push the grid down as they came
    frame.push(prefetchBatches(data));
    holdUntilOpened(firstScreenShown);
  }
  frame.push(data.queries.prefetchQuery(appInfoQuery(data.api)));
  frame.push(data.queries.prefetchQuery(settingsQuery(data.api)));
  return Promise.all(frame);
}
