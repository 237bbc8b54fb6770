import { z } from 'zod';
import { Count, lazy, Time } from '../define.ts';
import { ApiErrorSchema } from '../errors.ts';

/** The longest theme or prompt sent for help (a prompt's own limit is the target model's). */
const MAX_TEXT = 32_000;
/** Most prompts asked for, or listed as already kept, at once. */
export const MOST_PROMPTS = 100;

const Model = z.string().trim().min(1).max(200);
const Text = z.string().trim().min(1, 'write something first').max(MAX_TEXT);

/** What every prompt-help request shares. */
const Common = {
  /** The text model that writes; the settings' `promptModel` when left out. */
  model: Model.optional(),
  /** The model the prompts are for: it decides image or video wording and the prompt limit. */
  targetModel: Model.optional(),
  /** Prose sentences, or comma-separated tags (for tag-trained models). */
  style: z.enum(['prose', 'tags']).default('prose'),
};

export const ThemeInput = lazy(() =>
  z.object({
    theme: Text,
    count: z.number().int().min(1).max(MOST_PROMPTS).default(5),
    /** Prompts already kept ("regenerate the rest"): the model is asked for different ones. */
    exclude: z.array(z.string().max(MAX_TEXT)).max(MOST_PROMPTS).default([]),
    ...Common,
  }),
);

export const ExpandInput = lazy(() => z.object({ prompt: Text, ...Common }));

export const VaryInput = lazy(() =>
  z.object({
    prompt: Text,
    count: z.number().int().min(1).max(MOST_PROMPTS).default(3),
    ...Common,
  }),
);

/** One prompt the model wrote, cleaned; `note` says what was changed (cut to the limit). */
export const PromptIdea = lazy(() =>
  z.object({
    /** Its place in the answer, from 0, across all events of the request. */
    index: Count,
    text: z.string(),
    note: z.string().nullable(),
  }),
);

export const PromptHelpState = z.enum(['running', 'done', 'canceled', 'failed']);

/** A prompt-help request as `prompts.get` reads it (and as the methods that start one answer). */
export const PromptHelp = lazy(() =>
  z.object({
    id: z.string(),
    task: z.enum(['theme', 'expand', 'vary']),
    /** The text model asked. */
    model: z.string(),
    targetModel: z.string().nullable(),
    /** The prompt limit each prompt was cut to, in characters. */
    limit: z.number().int().positive(),
    /** How many prompts were asked for; fewer may come (then ask again with `exclude`). */
    asked: Count,
    state: PromptHelpState,
    prompts: z.array(PromptIdea),
    /** The line being written now, cleaned as far as it goes. */
    partial: z.string(),
    /** Lines dropped as repeats of an earlier prompt or of one in `exclude`. */
    duplicates: Count,
    /** Why it failed: what the gateway said and what to do. */
    error: ApiErrorSchema.nullable(),
    startedAt: Time,
    endedAt: Time.nullable(),
  }),
);

/** The `prompts.progress` event: what a request added since its last event. */
export const PromptHelpProgress = lazy(() =>
  z.object({
    id: z.string(),
    state: PromptHelpState,
    /** The prompts completed since the last event, in order. */
    added: z.array(PromptIdea),
    partial: z.string(),
    duplicates: Count,
    error: ApiErrorSchema.nullable(),
  }),
);
