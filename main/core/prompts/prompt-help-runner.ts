import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ApiError } from '../../../shared/api/errors.ts';
import type {
  PromptHelp,
  PromptHelpProgress,
  PromptIdea,
} from '../../../shared/api/schemas/prompts.ts';
import { createPromptParser } from '../../../shared/prompts/prompt-lines.ts';
import type { ChatMessage } from '../../../shared/gateway/requests.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/http/errors.ts';
import type { Logger } from '../logger.ts';
import { ProgressThrottle } from '../engine/progress.ts';
import { promptHelpError } from './prompt-help-error.ts';
import type { PromptTarget } from './prompt-instructions.ts';

export type PromptHelpView = z.infer<typeof PromptHelp>;
export type PromptHelpEvent = z.infer<typeof PromptHelpProgress>;
type Idea = z.infer<typeof PromptIdea>;

/** A gateway client lent for one call, given back when it ends. */
export interface LentClient {
  client: GatewayClient;
  release(): Promise<void>;
}

export interface PromptHelpJob {
  task: PromptHelpView['task'];
  /** The text model, and the endpoint it streams from. */
  model: string;
  api: 'chat' | 'responses';
  messages: ChatMessage[];
  target: PromptTarget;
  /** How many prompts are asked for (1 for expand). */
  asked: number;
  /** Prompts already kept: the same again is dropped as a duplicate. */
  exclude: readonly string[];
  /** The gateway, lent for this request; released when it ends. */
  lent: LentClient;
}

export interface PromptHelpRunnerOptions {
  /** Sends a `prompts.progress` event. */
  publish(event: PromptHelpEvent): void;
  logger: Logger;
  /** Shortest time between two events of one request (100 ms); the last is never held. */
  intervalMs?: number;
  /** Finished requests remembered for `get` (the newest 20). */
  keep?: number;
  now?: () => number;
}

interface Running {
  view: PromptHelpView;
  abort: AbortController;
  task: Promise<void>;
  /** Prompts not sent in an event yet. */
  unsent: Idea[];
  events: ProgressThrottle;
}

/**
 * Prompt help of this process: each request streams from a text model in the background; its
 * prompts are parsed as they arrive and sent as `prompts.progress` events (at most about ten a
 * second, each with the prompts completed since the last, and always the last); it can be
 * canceled at once (the request to the gateway is aborted); finished ones are remembered for
 * `get`, so a client that missed events (a reconnect) reads the whole list.
 */
export class PromptHelpRunner {
  private readonly running = new Map<string, Running>();
  private readonly ended = new Map<string, PromptHelpView>();
  private readonly options: PromptHelpRunnerOptions;
  private readonly intervalMs: number;
  private readonly keep: number;
  private readonly now: () => number;

  constructor(options: PromptHelpRunnerOptions) {
    this.options = options;
    this.intervalMs = options.intervalMs ?? 100;
    this.keep = options.keep ?? 20;
    this.now = options.now ?? Date.now;
  }

  start(job: PromptHelpJob): PromptHelpView {
    const id = randomUUID();
    const view: PromptHelpView = {
      id,
      task: job.task,
      model: job.model,
      targetModel: job.target.model,
      limit: job.target.limit,
      asked: job.asked,
      state: 'running',
      prompts: [],
      partial: '',
      duplicates: 0,
      error: null,
      startedAt: this.now(),
      endedAt: null,
    };
    const run: Running = {
      view,
      abort: new AbortController(),
      task: Promise.resolve(),
      unsent: [],
      events: new ProgressThrottle(this.intervalMs, () => this.send(run)),
    };
    this.running.set(id, run);
    run.task = this.stream(run, job).then(
      () => this.end(run, 'done', null),
      (error: unknown) => {
        if (run.abort.signal.aborted) return this.end(run, 'canceled', null);
        this.end(run, 'failed', this.errorOf(error, job.model));
      },
    );
    return { ...view, prompts: [] };
  }

  get(id: string): PromptHelpView | undefined {
    const run = this.running.get(id);
    return run ? { ...run.view, prompts: [...run.view.prompts] } : this.ended.get(id);
  }

  /** Stops a running request at once; false when the id is unknown. */
  async cancel(id: string): Promise<boolean> {
    const run = this.running.get(id);
    if (!run) return this.ended.has(id);
    run.abort.abort();
    await run.task;
    return true;
  }

  /** Cancels what runs (the service is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)));
  }

  private async stream(run: Running, job: PromptHelpJob): Promise<void> {
    const parser = createPromptParser({
      limit: job.target.limit,
      targetModel: job.target.model,
      mode: job.task === 'expand' ? 'whole' : 'lines',
      count: job.asked,
      exclude: job.exclude,
    });
    const { lent } = job;
    const signal = run.abort.signal;
    try {
      if (signal.aborted) return;
      const pieces =
        job.api === 'responses'
          ? lent.client.responsesStream({ model: job.model, input: job.messages }, { signal })
          : lent.client.chatStream({ model: job.model, messages: job.messages }, { signal });
      for await (const piece of pieces) {
        this.add(run, parser.push(piece), parser.partial(), parser.duplicates);
        // enough prompts: the rest of the answer is not needed (leaving stops the request)
        if (parser.full) break;
      }
      if (signal.aborted) throw signal.reason;
      this.add(run, parser.end(), '', parser.duplicates);
    } finally {
      await lent.release();
    }
  }

  private add(
    run: Running,
    ideas: Array<{ text: string; note: string | null }>,
    partial: string,
    duplicates: number,
  ) {
    const { view } = run;
    const numbered = ideas.map((idea, i) => ({ index: view.prompts.length + i, ...idea }));
    view.prompts.push(...numbered);
    run.unsent.push(...numbered);
    const changed =
      numbered.length > 0 || partial !== view.partial || duplicates !== view.duplicates;
    view.partial = partial;
    view.duplicates = duplicates;
    if (changed) run.events.touch(Date.now());
  }

  private errorOf(error: unknown, model: string): ApiError {
    if (error instanceof GatewayError) return promptHelpError(error.failure, model);
    this.options.logger.error(`prompt help with ${model} failed`, error);
    return {
      code: 'internal',
      message: `Prompt help failed: ${(error as Error)?.message ?? String(error)}`,
    };
  }

  private end(run: Running, state: PromptHelpView['state'], error: ApiError | null): void {
    run.view = { ...run.view, state, error, partial: '', endedAt: this.now() };
    this.running.delete(run.view.id);
    this.ended.set(run.view.id, run.view);
    for (const id of this.ended.keys()) {
      if (this.ended.size <= this.keep) break;
      this.ended.delete(id);
    }
    // the last event is never held back
    run.events.flush();
  }

  /** The prompts added since the last event (at most one event an interval per request). */
  private send(run: Running): void {
    const { id, state, partial, duplicates, error } = run.view;
    this.options.publish({ id, state, added: run.unsent, partial, duplicates, error });
    run.unsent = [];
  }
}
