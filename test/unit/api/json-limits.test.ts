import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../../shared/api/contract.ts';
import {
  FREE_JSON_LIMITS,
  isBoundedJson,
  jsonLimitProblem,
} from '../../../shared/api/json-limits.ts';

function nested(depth: number, leaf: unknown = 1, array = false): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value };
  return value;
}

describe('jsonLimitProblem', () => {
  it('accepts what a vendor sends, and refuses depth and size past the limits', () => {
    expect(jsonLimitProblem({ loras: [{ path: 'x', scale: 0.8 }], steps: 30 })).toBeNull();
    expect(jsonLimitProblem(nested(FREE_JSON_LIMITS.maxDepth))).toBeNull();
    expect(jsonLimitProblem(nested(FREE_JSON_LIMITS.maxDepth + 1))).toBe(
      'is nested deeper than 32 levels',
    );
    expect(jsonLimitProblem(nested(5_000, 1, true))).toBe('is nested deeper than 32 levels');
    // a million levels: no stack is used, and the walk stops at the first excess
    expect(jsonLimitProblem(nested(1_000_000))).toBe('is nested deeper than 32 levels');
    expect(jsonLimitProblem({ big: 'x'.repeat(70_000) })).toBe('is larger than 64 KiB');
    expect(jsonLimitProblem(Array.from({ length: 20_000 }, () => 1))).toBe('is larger than 64 KiB');
    expect(jsonLimitProblem({ ['k'.repeat(70_000)]: 1 })).toBe('is larger than 64 KiB');
  });
});

/** Where a schema takes any JSON at all (unknown, any) without boundedJson around it. */
function unbounded(schema: z.ZodType, path: string, seen = new Set<z.ZodType>()): string[] {
  if (isBoundedJson(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const walk = (inner: unknown, at: string) => unbounded(inner as z.ZodType, at, seen);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return [path];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, inner]) =>
        walk(inner, `${path}.${key}`),
      );
    case 'array':
      return walk(def.element, `${path}[]`);
    case 'record':
      return walk(def.valueType, `${path}{}`);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option, i) => walk(option, `${path}|${i}`));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'tuple':
      return (def.items as z.ZodType[]).flatMap((item, i) => walk(item, `${path}[${i}]`));
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'lazy':
      return walk((def.getter as () => z.ZodType)(), path);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType, path);
    default:
      return [];
  }
}

describe('the contract', () => {
  it('bounds every free-form JSON a caller can send (extra, model entries…)', () => {
    // (the search finds one where there is one)
    const loose = z.object({
      rows: z.array(z.object({ extra: z.record(z.string(), z.unknown()) })),
    });
    expect(unbounded(loose.optional(), 'x')).toEqual(['x.rows[].extra{}']);
    const found = Object.entries(contract).flatMap(([area, methods]) =>
      Object.entries(methods as Record<string, { input: z.ZodType }>).flatMap(([name, spec]) =>
        unbounded(spec.input, `${area}.${name}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
