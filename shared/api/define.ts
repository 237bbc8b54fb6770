import { z } from 'zod';

/** One method of the contract: the schema of what is sent and of what comes back. */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
}

export const method = <I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
): MethodSpec<I, O> => ({ input, output });

/**
 * A schema built on its first use (a parse, or a schema built from it) rather than as its
 * module loads: a CLI run parses a handful of the contract's hundred-odd schemas and the
 * window none at start, where building them all cost the CLI about 5 ms of CPU and the
 * window's API modules about 10. Its `unwrap()` is the schema itself, built once. Any
 * module-level object, union or array schema is written so (the gateway's answers, the
 * catalogue's entries…), unless every run parses it before its first request (the settings);
 * a primitive or an enum stays a constant (a few µs, and a lazy field costs every parse).
 */
export function lazy<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  let built: T | undefined;
  return z.lazy(() => (built ??= build()));
}

/**
 * Options for a parse that runs once or seldom (a call's input, a settings file): zod compiles
 * a parser for each object schema on its first parse, which costs several times that parse
 * and pays back only where a schema parses thousands of times (the gateway's answers).
 */
export const PARSE_ONCE = { jitless: true } as const;

/** Input of a method that takes nothing: callers may leave it out. */
export const NoInput = z.object({}).strict().default({});

/** Output of a method that only acts. */
export const Done = z.null();

export const Id = z.number().int().positive();
/** Milliseconds since the epoch. */
export const Time = z.number().int().nonnegative();
export const Count = z.number().int().nonnegative();
