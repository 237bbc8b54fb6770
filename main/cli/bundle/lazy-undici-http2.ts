import { sep } from 'node:path';
import type { Plugin } from 'rolldown';

/** undici's client, which requires its HTTP/2 client (and node:http2 with it) as it loads. */
const CLIENT = `${sep}undici${sep}lib${sep}dispatcher${sep}client.js`;
const EAGER = "const connectH2 = require('./client-h2.js')";
// (a require inside a function stays lazy in a bundle: the module is evaluated on first call)
const LAZY = `let loadedConnectH2 = null
function connectH2 (...args) {
  loadedConnectH2 ??= require('./client-h2.js')
  return loadedConnectH2(...args)
}`;

/** llhttp's WebAssembly as base64 text (72 KB each), required on undici's first connection. */
const LLHTTP_WASM = /^\.\.\/llhttp\/(llhttp(?:_simd)?-wasm\.js)$/;

/** The sources' stand-in for the same, which a bundle carrying undici's files needs not. */
const SOURCES_STAND_IN = `${sep}main${sep}core${sep}gateway${sep}http${sep}undici-http2-on-use.ts`;

/**
 * A bundle that carries undici's files loads its HTTP/2 client (~8 ms of CPU for node:http2)
 * on the first HTTP/2 connection, as the sources do (undici-http2-on-use.ts): the client's
 * top-level require turns into a call. An undici whose client no longer has that line fails
 * the build, so that the change is looked at rather than paid at every start.
 */
export function lazyUndiciHttp2(): Plugin {
  return {
    name: 'atelier:lazy-undici-http2',
    // (left in node_modules, required on use as with the sources: in the bundle, each start
    // would read and hash them with the rest of its chunk. Vite resolves a relative path before
    // a plugin without `enforce`: the desktop's bundle carries them, for one start per session)
    resolveId(source, importer) {
      const wasm = LLHTTP_WASM.exec(source);
      if (!wasm || !importer?.includes(`${sep}undici${sep}lib${sep}`)) return null;
      return { id: `undici/lib/llhttp/${wasm[1]}`, external: true };
    },
    transform(code, id) {
      if (id.endsWith(SOURCES_STAND_IN)) return { code: 'export {};\n', map: null };
      if (!id.endsWith(CLIENT)) return null;
      if (!code.includes(EAGER)) {
        this.error(
          `undici's ${id} no longer has "${EAGER}": see main/cli/bundle/lazy-undici-http2.ts, ` +
            'and make its HTTP/2 client load on use again.',
        );
      }
      return { code: code.replace(EAGER, LAZY), map: null };
    },
  };
}
