/** The gallery of what the queue made. */
export function GalleryScreen() {
  return (
    <section className="screen panel" aria-labelledby="gallery-heading">
      <h2 id="gallery-heading">Gallery</h2>
      <p className="muted">The images your batches made will be browsed here.</p>
    </section>
  );
}
