/** Compose: prompts, templates and parameters into a batch. */
export function ComposeScreen() {
  return (
    <section className="screen panel" aria-labelledby="compose-heading">
      <h2 id="compose-heading">Compose</h2>
      <p className="muted">Prompts, templates and parameters become a batch here.</p>
    </section>
  );
}
