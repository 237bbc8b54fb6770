import { createRequire, Module } from 'node:module';

/**
 * undici's HTTP/2 client loads node:http2 (~8 ms of CPU) when undici loads, though an Agent
 * negotiates HTTP/2 only when told to (allowH2, which Atelier never sets). Its module is
 * loaded on the first HTTP/2 connection instead: until then a stand-in takes its place in
 * require's cache, which undici's client reads. Imported first by undici-core.ts, so that it
 * runs before undici's files load; the CLI's bundle and the desktop's, which carry undici's
 * files, make that require lazy at build time instead and drop this module
 * (main/cli/bundle/lazy-undici-http2.ts).
 */
const load = createRequire(import.meta.url);

function loadHttp2ClientOnUse(): void {
  const file = load.resolve('undici/lib/dispatcher/client-h2.js');
  if (load.cache[file]) return;
  let connectH2: ((...args: unknown[]) => unknown) | null = null;
  const standIn = new Module(file);
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = (...args: unknown[]) => {
    if (!connectH2) {
      delete load.cache[file];
      connectH2 = load(file) as (...args: unknown[]) => unknown;
    }
    return connectH2(...args);
  };
  load.cache[file] = standIn;
}
loadHttp2ClientOnUse();
