import { useEffect } from 'react';
import { navigate } from '../../frame/navigation.ts';
import { useAppStore } from '../../store/react.ts';

/** The gallery of what the queue made (the browsing comes next); meanwhile, where images are. */
export function GalleryScreen() {
  const library = useAppStore((s) => s.libraryInfo);
  const load = useAppStore((s) => s.loadLibraryInfo);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="screen panel" aria-labelledby="gallery-heading">
      <h1 id="gallery-heading">Gallery</h1>
      <p className="muted">
        Browsing, searching and comparing your images here comes next.
        {library && (
          <>
            {' '}
            Until then, every image is written with its prompt inside it to{' '}
            <code>{library.libraryDir}</code>, one folder per batch.
          </>
        )}
      </p>
      <p>
        <button type="button" onClick={() => navigate('queue')}>
          Open the queue
        </button>
      </p>
    </section>
  );
}
