import { types } from 'node:util';

/**
 * A value as it crosses Electron's context bridge between the preload's isolated world and the
 * page (Electron's contextBridge docs, "Parameter / Error / Return Type support"): simple values
 * as they are; objects and arrays copied, own enumerable keys only, prototypes dropped (a
 * class's methods do not cross); functions proxied, their arguments, results and errors crossing
 * the same way; a promise proxied only as a return value or an exact argument (nested, it is
 * dropped); errors copied as their message; other cloneable values (dates, buffers…) by
 * structured clone; symbols refused.
 */
export function acrossBridge(value: unknown, nested = false): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
    case 'bigint':
      return value;
    case 'symbol':
      throw new TypeError('Symbols cannot be sent over the context bridge.');
    case 'function':
      return proxyFunction(value as (...args: unknown[]) => unknown);
  }
  if (value === null) return null;
  if (types.isPromise(value)) {
    return nested ? undefined : Promise.resolve(value).then(acrossBridge, rethrowAcross);
  }
  if (types.isNativeError(value)) return new Error((value as Error).message);
  if (Array.isArray(value)) return value.map((item) => acrossBridge(item, true));
  if (isCloneable(value as object)) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    copy[key] = acrossBridge((value as Record<string, unknown>)[key], true);
  }
  return copy;
}

function proxyFunction(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    let result: unknown;
    try {
      result = fn(...args.map((arg) => acrossBridge(arg)));
    } catch (error) {
      rethrowAcross(error);
    }
    return acrossBridge(result);
  };
}

function rethrowAcross(error: unknown): never {
  throw types.isNativeError(error) ? new Error((error as Error).message) : acrossBridge(error);
}

function isCloneable(value: object): boolean {
  return (
    types.isDate(value) ||
    types.isRegExp(value) ||
    types.isArrayBuffer(value) ||
    types.isArrayBufferView(value) ||
    types.isMap(value) ||
    types.isSet(value)
  );
}
