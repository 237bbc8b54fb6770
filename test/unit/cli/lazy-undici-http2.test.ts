import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { TransformPluginContext } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { lazyUndiciHttp2 } from '../../../main/cli/bundle/lazy-undici-http2.ts';

const client = createRequire(import.meta.url).resolve('undici/lib/dispatcher/client.js');
const transform = lazyUndiciHttp2().transform as (
  this: Pick<TransformPluginContext, 'error'>,
  code: string,
  id: string,
) => { code: string } | null;
const context = {
  error(message: unknown): never {
    throw new Error(String(message));
  },
};

describe('the bundle’s lazy HTTP/2 client of undici', () => {
  it('turns the installed undici’s top-level require of its HTTP/2 client into a call', () => {
    const result = transform.call(context, readFileSync(client, 'utf8'), client);
    expect(result?.code).not.toContain("const connectH2 = require('./client-h2.js')");
    expect(result?.code).toContain('function connectH2 (...args)');
  });

  it('fails the build when an undici no longer has that line', () => {
    const changed = readFileSync(client, 'utf8').replace(
      "const connectH2 = require('./client-h2.js')",
      "const { connectH2 } = require('./client-h2.js')",
    );
    expect(() => transform.call(context, changed, client)).toThrow(
      /no longer has "const connectH2 = require\('\.\/client-h2\.js'\)"/,
    );
  });

  it('leaves other files alone', () => {
    expect(transform.call(context, "require('./client-h2.js')", '/x/undici/lib/other.js')).toBe(
      null,
    );
  });
});
