import './zod-config.ts';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { onSessionEnd, startSession } from './api/session.ts';
import { SignedOut } from './frame/SignedOut.tsx';
import './styles.css';

const element = document.getElementById('root');
if (!element) throw new Error('Atelier: #root element missing from index.html');
const root = createRoot(element);

/** The desktop's preload is the API; in a browser, this tab opens its session first. */
async function boot(): Promise<void> {
  if (!window.atelier) {
    const session = await startSession(window);
    if (!session.ok) return root.render(<SignedOut message={session.message} />);
    onSessionEnd((message) => root.render(<SignedOut message={message} />));
  }
  root.render(<App />);
}
void boot();
