// first: the session's exchange and the opening screen's chunk start before the rest is run
import { openingLoaded, openingScreen, sessionStarted } from './start-early.ts';
import './zod-config.ts';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, openConnection } from './App.tsx';
import { onSessionEnd } from './api/session.ts';
import { prefetchOpeningScreen } from './frame/prefetch-opening.ts';
import { settleWithin } from './data/settle-within.ts';
import { SignedOut } from './frame/SignedOut.tsx';
import './styles.css';

/** The first render waits at most this long for the frame's first data. */
const FRAME_DATA_WAIT_MS = 150;

const element = document.getElementById('root');
if (!element) throw new Error('Atelier: #root element missing from index.html');
const root = createRoot(element);

/** The desktop's preload is the API; in a browser, this tab opens its session first. */
async function boot(): Promise<void> {
  if (sessionStarted) {
    const session = await sessionStarted;
    if (!session.ok) return root.render(<SignedOut message={session.message} />);
    onSessionEnd((message) => root.render(<SignedOut message={message} />));
  }
  const connection = openConnection();
  const frameData = prefetchOpeningScreen(connection, openingScreen);
  // rendered once its screen's code is in (no empty frame first) and what the frame shows is
  // (tens of ms): an answer coming during the render made React render it all again at once
  await Promise.all([openingLoaded, settleWithin(frameData, FRAME_DATA_WAIT_MS)]);
  // a transition: the first render (the window's longest task) yields to the answers coming
  // meanwhile, so the first screen's thumbnails are asked for as its details come, not after
  startTransition(() => root.render(<App connection={connection} />));
}
void boot();
