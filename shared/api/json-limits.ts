import type { z } from 'zod';

/**
 * Limits on free-form JSON (a row's `extra`, a model entry): whatever a caller sends, a value
 * nested or sized past them is refused with a sentence, before anything recurses into it (a
 * body nested 5,000 deep overflowed the stack, and SQLite refuses JSON nested past 1,000).
 */
export interface JsonLimits {
  /** Objects and arrays inside one another (`{"a":{"b":1}}` is 2). */
  maxDepth: number;
  /** Its size written as JSON, roughly (strings by their length), in bytes. */
  maxBytes: number;
}

/** Far beyond any vendor's extra fields, far below what breaks a parser or SQLite. */
export const FREE_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxBytes: 64 * 1024 };

/**
 * Why `value` is past the limits, as the end of a sentence ("is nested deeper than 32
 * levels"), or null. Walks with its own stack, never the call stack, and stops at the first
 * excess, so a hostile value costs at most about `maxBytes` steps.
 */
export function jsonLimitProblem(
  value: unknown,
  limits: JsonLimits = FREE_JSON_LIMITS,
): string | null {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let bytes = 0;
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (typeof next === 'string') bytes += next.length + 2;
    else if (next === null || typeof next !== 'object') bytes += 8;
    else {
      if (depth + 1 > limits.maxDepth) {
        return `is nested deeper than ${limits.maxDepth} levels`;
      }
      const entries = Array.isArray(next) ? next : Object.entries(next);
      bytes += 2 + entries.length;
      for (const entry of entries) {
        if (Array.isArray(next)) pending.push({ value: entry, depth: depth + 1 });
        else {
          const [key, inner] = entry as [string, unknown];
          bytes += key.length + 3;
          pending.push({ value: inner, depth: depth + 1 });
        }
      }
    }
    if (bytes > limits.maxBytes) {
      return `is larger than ${Math.round(limits.maxBytes / 1024)} KiB`;
    }
  }
  return null;
}

const bounded = new WeakSet<z.ZodType>();

/** `schema`, refusing a value past `limits` (see jsonLimitProblem) with a sentence. */
export function boundedJson<T extends z.ZodType>(
  schema: T,
  limits: JsonLimits = FREE_JSON_LIMITS,
): T {
  const checked = schema.superRefine((value, context) => {
    const problem = jsonLimitProblem(value, limits);
    if (problem) context.addIssue({ code: 'custom', message: `this free-form JSON ${problem}` });
  }) as unknown as T;
  bounded.add(checked);
  return checked;
}

/** Whether `schema` came from boundedJson (the contract's test finds every unbounded one). */
export function isBoundedJson(schema: z.ZodType): boolean {
  return bounded.has(schema);
}
