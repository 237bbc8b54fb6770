import { useEffect, useEffectEvent, useState } from 'react';
import { useClient } from '../../api/client-context.ts';
import { useData } from '../../data/data-context.ts';
import { prefetchGalleryList } from './gallery-queries.ts';
import { galleryUi } from './gallery-state.ts';

/** Typing waits this long before the search runs: a search per key would outrun the person. */
const SEARCH_DELAY_MS = 150;

/** The prompt search: results follow the typing, a moment after it. */
export function SearchBox() {
  const view = galleryUi.useSelect((s) => s.view);
  const viewText = view.text;
  const setView = galleryUi.useSelect((s) => s.setView);
  const data = useData();
  const client = useClient();
  const search = (next: string) => {
    prefetchGalleryList(data, { ...view, text: next }, client);
    setView({ text: next });
  };
  const [text, setText] = useState(viewText);
  const [shown, setShown] = useState(viewText);
  // a view changed elsewhere (Clear filters) shows its text here
  if (viewText !== shown) {
    setShown(viewText);
    setText(viewText);
  }
  const searchLater = useEffectEvent(() => search(text));
  useEffect(() => {
    if (text === viewText) return;
    const timer = setTimeout(searchLater, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, viewText]);
  return (
    <input
      type="search"
      className="gallery-search"
      aria-label="Search prompts"
      placeholder="Search prompts…"
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') search(text);
      }}
    />
  );
}
