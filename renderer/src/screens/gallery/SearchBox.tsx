import { useEffect, useState } from 'react';
import { galleryUi } from './gallery-state.ts';

/** Typing waits this long before the search runs: a search per key would outrun the person. */
const SEARCH_DELAY_MS = 150;

/** The prompt search: results follow the typing, a moment after it. */
export function SearchBox() {
  const viewText = galleryUi.useSelect((s) => s.view.text);
  const setView = galleryUi.useSelect((s) => s.setView);
  const [text, setText] = useState(viewText);
  const [shown, setShown] = useState(viewText);
  // a view changed elsewhere (Clear filters) shows its text here
  if (viewText !== shown) {
    setShown(viewText);
    setText(viewText);
  }
  useEffect(() => {
    if (text === viewText) return;
    const timer = setTimeout(() => setView({ text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, viewText, setView]);
  return (
    <input
      type="search"
      className="gallery-search"
      aria-label="Search prompts"
      placeholder="Search prompts…"
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') setView({ text });
      }}
    />
  );
}
