import { useContext } from 'react';
import { ClientContext } from '../api/client-context.ts';
import { useAction } from '../data/action.ts';
import { SCREENS, type ScreenId } from './navigation.ts';

/** The four places of the app; the current one is marked for screen readers too. */
export function Sidebar({ current }: { current: ScreenId }) {
  // the browser host only: a new window opens with a code of its own (api/session.ts)
  const newWindow = useContext(ClientContext)?.newWindow;
  const openWindow = useAction<string, void>({
    run: (route) => newWindow!(route),
    what: 'open a new window',
  });
  return (
    <nav className="sidebar" aria-label="Atelier">
      <p className="sidebar-brand" aria-hidden="true">
        Atelier
      </p>
      <ul>
        {SCREENS.map((screen, i) => (
          <li key={screen.id}>
            <a
              href={`#/${screen.id}`}
              aria-current={screen.id === current ? 'page' : undefined}
              aria-keyshortcuts={`Control+${i + 1}`}
            >
              <span className="sidebar-icon" aria-hidden="true">
                {ICONS[screen.id]}
              </span>
              <span className="sidebar-label">{screen.label}</span>
            </a>
          </li>
        ))}
      </ul>
      {newWindow && (
        <button
          type="button"
          className="sidebar-action"
          title="Open Atelier in a new window or tab"
          onClick={() => void openWindow.run(`/${current}`)}
        >
          <span className="sidebar-icon" aria-hidden="true">
            <NewWindowIcon />
          </span>
          <span className="sidebar-label">New window</span>
        </button>
      )}
    </nav>
  );
}

/** Plain glyphs: no icon font to load, legible in both themes. */
const ICONS: Record<ScreenId, string> = {
  compose: '✎',
  queue: '☰',
  gallery: '▦',
  settings: '⚙',
};

/** Drawn: the fonts of some systems (DejaVu alone, on Linux) lack ⧉, an empty box in its place. */
function NewWindowIcon() {
  return (
    <svg width="15" height="15" viewBox="0 0 16 16" fill="none" stroke="currentColor">
      <rect x="5.5" y="5.5" width="8.5" height="8.5" rx="1.5" strokeWidth="1.5" />
      <path d="M10.5 5.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v6.5a1 1 0 0 0 1 1h2.5" strokeWidth="1.5" />
    </svg>
  );
}
