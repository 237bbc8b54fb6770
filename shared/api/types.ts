import type { z } from 'zod';
import type { contract } from './contract.ts';
import type { Result } from './errors.ts';
import type { EventBatch } from './events.ts';

export type Contract = typeof contract;
export type Area = keyof Contract;
export type MethodName<A extends Area> = keyof Contract[A] & string;

type Spec<A extends Area, M extends MethodName<A>> = Contract[A][M] extends {
  input: infer I extends z.ZodType;
  output: infer O extends z.ZodType;
}
  ? { input: I; output: O }
  : never;

/** What a caller sends (defaults not yet applied). */
export type InputOf<A extends Area, M extends MethodName<A>> = z.input<Spec<A, M>['input']>;
/** What a handler receives (parsed, defaults applied). */
export type ParsedInputOf<A extends Area, M extends MethodName<A>> = z.output<Spec<A, M>['input']>;
export type OutputOf<A extends Area, M extends MethodName<A>> = z.output<Spec<A, M>['output']>;

/** A method whose input may be left out can be called without an argument. */
type Call<I, R> = undefined extends I ? (input?: I) => Promise<R> : (input: I) => Promise<R>;

export type EventListener = (batch: EventBatch) => void;
/** The stream broke (the host stopped, the network dropped, the computer slept): why, and
 * when it is tried again. Deliveries resume, from the last cursor, once it is back. */
export type StreamLostListener = (lost: { reason: string; retryInMs: number }) => void;
export interface EventSource {
  /**
   * Delivers from `cursor` (or from now, with null) until the returned function is called.
   * A transport that can lose its stream (HTTP) tells `onLost` each time it does.
   */
  subscribe(
    cursor: string | null,
    listener: EventListener,
    onLost?: StreamLostListener,
  ): () => void;
}

/** The API as screens use it: errors thrown. */
export type Api = {
  [A in Area]: { [M in MethodName<A>]: Call<InputOf<A, M>, OutputOf<A, M>> };
} & { events: EventSource };

/** The API as transports carry it: errors as data (classes do not cross IPC). */
export type RawApi = {
  [A in Area]: { [M in MethodName<A>]: Call<InputOf<A, M>, Result<OutputOf<A, M>>> };
} & { events: EventSource };

/** What the service implements: parsed input in, plain data out. */
export type Handlers = {
  [A in Area]: {
    [M in MethodName<A>]: (input: ParsedInputOf<A, M>) => Promise<OutputOf<A, M>>;
  };
};
