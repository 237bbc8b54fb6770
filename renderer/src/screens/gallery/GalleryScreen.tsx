/** The gallery of what the queue made. */
export function GalleryScreen() {
  return (
    <section className="screen panel" aria-labelledby="gallery-heading">
      <h1 id="gallery-heading">Gallery</h1>
      <p className="muted">The images your batches made will be browsed here.</p>
    </section>
  );
}
