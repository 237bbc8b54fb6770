export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>Atelier</h1>
      <p>Batch image generation through an AI gateway. The batch composer arrives next.</p>
    </main>
  );
}
