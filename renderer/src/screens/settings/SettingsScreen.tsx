/** Settings: gateways and the key, models and prices, the queue's limits, the library. */
export function SettingsScreen() {
  return (
    <section className="screen panel" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <p className="muted">Gateways, the key, models and the library are set here.</p>
    </section>
  );
}
