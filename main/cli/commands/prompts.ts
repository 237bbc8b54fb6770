import type { EventBatch } from '../../../shared/api/events.ts';
import type { OutputOf } from '../../../shared/api/types.ts';
import { MOST_PROMPTS } from '../../../shared/api/schemas/prompts.ts';
import { ApiRequestError } from '../../../shared/api/unwrap.ts';
import type { AppService } from '../../core/app/app-service.ts';
import { API_KEY_VARIABLE } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import { ConfigError, intFlag, oneOf, parseFlags, UsageError, type Command } from '../command.ts';
import { resolveDataDir } from '../data-folder.ts';
import { applyFlags, withCliService } from '../run/cli-service.ts';
import { sessionSettingsFlags } from '../run/session-flags.ts';

type PromptHelp = OutputOf<'prompts', 'generate'>;

export const promptsCommand: Command = {
  name: 'prompts',
  summary: 'ask a text model for prompts on a theme, one a line, ready for atelier run',
  help: `Usage: atelier prompts --theme TEXT [--count N] [--model M] [--style prose|tags]
                       [--for MODEL] [--demo | --gateway URL] [--data DIR]

Asks a text model of the gateway for prompts on a theme and prints them on stdout as they are
written, one a line, cleaned (no numbering, bullets, quotes or thinking), repeats dropped:
ready for "atelier run". Notes and errors go to stderr.

  atelier prompts --theme "lighthouses in winter" --count 20 --demo > prompts.txt
  atelier run prompts.txt --demo --model flux-schnell

  --theme TEXT       what the prompts are about (required)
  --count N          how many, 1 to ${MOST_PROMPTS} (default 5)
  --model M          the text model that writes them (default: promptModel in the app's
                     Settings; with --demo, the first text model of the catalogue)
  --style S          prose (sentences, the default) or tags (comma-separated keywords)
  --for MODEL        the image or video model the prompts are for: video prompts describe
                     the action and the camera, and each is cut to the model's prompt limit
  --demo             the built-in simulator: nothing is charged
  --gateway URL      the gateway at URL (the key: ${API_KEY_VARIABLE})
  --header 'N: v'    an extra header the gateway needs (repeatable; its value is never saved)
  --data DIR         the data folder whose settings and models.json are read
                     (default ./.atelier-data)

Settings: the data folder's, shared with the app and "atelier run": with neither --demo nor
--gateway, the gateway chosen there (the demo when none was); the flags given are saved there.

Ctrl+C stops the request at once; the prompts already printed stay. Exit codes: 0 done (fewer
than asked is said on stderr), 1 the gateway failed or refused, 2 usage or configuration,
130 stopped by Ctrl+C.`,

  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      theme: { type: 'string' },
      count: { type: 'string' },
      model: { type: 'string' },
      style: { type: 'string' },
      for: { type: 'string' },
      demo: { type: 'boolean' },
      gateway: { type: 'string' },
      header: { type: 'string', multiple: true },
      data: { type: 'string' },
    });
    if (positionals.length > 0) {
      throw new UsageError(`atelier prompts takes no file (got ${positionals.join(', ')}).`);
    }
    const theme = values.theme?.trim();
    if (!theme) throw new UsageError('--theme TEXT is required: what the prompts are about.');
    if (values.demo && values.gateway !== undefined) {
      throw new UsageError('give either --demo or --gateway URL, not both.');
    }
    if (values.header && values.gateway === undefined) {
      throw new UsageError('--header goes with --gateway URL.');
    }
    const count = intFlag(values.count, '--count', 1, MOST_PROMPTS) ?? 5;
    const style = oneOf(values.style, '--style', ['prose', 'tags'] as const) ?? 'prose';
    const dataDir = resolveDataDir(values.data);
    const flags = sessionSettingsFlags({ ...values, json: true });
    return withCliService(
      { dataDir, flags, limits: { engine: {}, client: {} }, json: false },
      async (service, plan) => {
        await applyFlags(service, plan);
        try {
          return await printPrompts(service, {
            theme,
            count,
            style,
            ...(values.model ? { model: values.model } : {}),
            ...(values.for ? { targetModel: values.for } : {}),
          });
        } catch (error) {
          if (error instanceof ApiRequestError && error.details?.field === 'model') {
            throw new ConfigError(
              "No text model is chosen for prompt help: give --model M (a text model of your gateway, such as gpt-4o-mini), or set promptModel in the app's Settings.",
            );
          }
          throw error;
        }
      },
    );
  },
};

/**
 * Starts the request and prints each prompt as its event brings it, in order; Ctrl+C cancels
 * the request at once. Whatever the events missed, the final `get` prints.
 */
async function printPrompts(
  service: AppService,
  input: {
    theme: string;
    count: number;
    style: 'prose' | 'tags';
    model?: string;
    targetModel?: string;
  },
): Promise<number> {
  const api = localClient(service);
  let id: string | null = null;
  let printed = 0;
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => (ended = resolve));
  const early: EventBatch[] = [];
  const print = (prompts: PromptHelp['prompts']) => {
    for (const prompt of prompts) {
      if (prompt.index < printed) continue;
      process.stdout.write(`${prompt.text}\n`);
      if (prompt.note)
        process.stderr.write(`atelier prompts: prompt ${prompt.index + 1}: ${prompt.note}\n`);
      printed = prompt.index + 1;
    }
  };
  const take = (batch: EventBatch) => {
    if (id === null) return void early.push(batch);
    for (const event of batch.events) {
      if (event.type !== 'prompts.progress' || event.payload.id !== id) continue;
      print(event.payload.added);
      if (event.payload.state !== 'running') ended();
    }
  };
  const unsubscribe = service.events.subscribe(null, take);
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    if (id) void api.prompts.cancel({ id }).catch(() => {});
    ended();
  };
  process.once('SIGINT', interrupt);
  // the service's event timers never hold a process open; this command waits for them
  const keepAlive = setInterval(() => {}, 60_000);
  try {
    const started = await api.prompts.generate({ ...input, exclude: [] });
    id = started.id;
    for (const batch of early.splice(0)) take(batch);
    if (interrupted) await api.prompts.cancel({ id });
    await done;
    let view = await api.prompts.get({ id });
    // (an interrupt ends the wait at once; the cancel settles the request just after)
    if (view.state === 'running') {
      await api.prompts.cancel({ id });
      view = await api.prompts.get({ id });
    }
    print(view.prompts);
    return report(view, interrupted);
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', interrupt);
    unsubscribe();
  }
}

/** The end said on stderr: a failure with what to do, or fewer prompts than asked. */
function report(view: PromptHelp, interrupted: boolean): number {
  const say = (line: string) => process.stderr.write(`atelier prompts: ${line}\n`);
  if (interrupted) {
    say(`stopped with Ctrl+C after ${view.prompts.length} of ${view.asked} prompts.`);
    return 130;
  }
  if (view.state === 'failed' && view.error) {
    const advice =
      view.error.details?.kind === 'auth' ? ` (the key comes from ${API_KEY_VARIABLE})` : '';
    say(`${view.error.message}${advice}`);
    return 1;
  }
  const repeats = view.duplicates > 0 ? ` (${view.duplicates} repeats dropped)` : '';
  if (view.prompts.length < view.asked) {
    say(
      `${view.model} gave ${view.prompts.length} of ${view.asked} prompts${repeats}; run again for more.`,
    );
  }
  return 0;
}
