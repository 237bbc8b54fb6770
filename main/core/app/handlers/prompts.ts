import type { Handlers } from '../../../../shared/api/types.ts';
import { promptLimitOf, type Catalogue } from '../../../../shared/gateway/catalogue.ts';
import { DEFAULT_PROMPT_LIMIT } from '../../../../shared/prompts/prompt-lines.ts';
import type { PromptHelpRunner, PromptHelpView } from '../../prompts/prompt-help-runner.ts';
import {
  promptMessages,
  type PromptStyle,
  type PromptTarget,
  type PromptTask,
} from '../../prompts/prompt-instructions.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import type { SettingsValue } from '../settings-store.ts';

interface Choice {
  model?: string | undefined;
  targetModel?: string | undefined;
  style: PromptStyle;
}

/** The text model asked: the one named, the settings' choice, or in demo mode the first known. */
function textModelOf(named: string | undefined, settings: SettingsValue, catalogue: Catalogue) {
  const model =
    named ??
    settings.promptModel ??
    (settings.gateway.kind === 'demo'
      ? (catalogue.entries().find((entry) => entry.kind === 'text')?.id ?? null)
      : null);
  if (!model) {
    throw new AppError(
      'invalid-argument',
      'No text model is chosen for prompt help: choose one in the settings (promptModel), or name one with the request.',
      { field: 'model' },
    );
  }
  const entry = catalogue.lookup(model);
  if (catalogue.knows(model) && entry.kind !== 'text') {
    throw new AppError(
      'invalid-argument',
      `${model} is ${entry.kind === 'image' ? 'an image' : 'a video'} model; prompt help needs a text model.`,
    );
  }
  return { model, api: entry.kind === 'text' ? (entry.api ?? 'chat') : ('chat' as const) };
}

/** The model the prompts are for: image or video wording, and its prompt limit. */
function targetOf(named: string | undefined, catalogue: Catalogue): PromptTarget {
  if (!named) return { model: null, kind: 'image', limit: DEFAULT_PROMPT_LIMIT };
  const entry = catalogue.lookup(named);
  if (entry.kind === 'text') {
    throw new AppError(
      'invalid-argument',
      `${named} is a text model; prompts are written for an image or video model.`,
    );
  }
  return { model: named, kind: entry.kind, limit: promptLimitOf(entry) ?? DEFAULT_PROMPT_LIMIT };
}

export function promptHandlers(ctx: AppContext, runner: PromptHelpRunner): Handlers['prompts'] {
  const unknown = (id: string) =>
    new AppError(
      'not-found',
      `There is no prompt-help request ${id} (this process did not start it, or forgot it).`,
    );

  async function begin(
    task: PromptTask,
    choice: Choice,
    asked: number,
    exclude: readonly string[] = [],
  ): Promise<PromptHelpView> {
    const settings = ctx.settings.read();
    const catalogue = ctx.catalogue();
    const { model, api } = textModelOf(choice.model, settings, catalogue);
    const target = targetOf(choice.targetModel, catalogue);
    const lent = await ctx.session.lendClient(settings, catalogue);
    if ('code' in lent) throw new AppError(lent.code, lent.message);
    return runner.start({
      task: task.task,
      model,
      api,
      messages: promptMessages(task, choice.style, target),
      target,
      asked,
      exclude,
      lent,
    });
  }

  return {
    async generate({ theme, count, exclude, ...choice }) {
      return begin({ task: 'theme', theme, count, exclude }, choice, count, exclude);
    },
    async expand({ prompt, ...choice }) {
      return begin({ task: 'expand', prompt }, choice, 1);
    },
    async vary({ prompt, count, ...choice }) {
      // the prompt itself is not one of its variations
      return begin({ task: 'vary', prompt, count }, choice, count, [prompt]);
    },
    async get({ id }) {
      const view = runner.get(id);
      if (!view) throw unknown(id);
      return view;
    },
    async cancel({ id }) {
      if (!(await runner.cancel(id))) throw unknown(id);
      return null;
    },
  };
}
