import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EventBatch } from '../../../shared/api/events.ts';
import type { OutputOf } from '../../../shared/api/types.ts';
import { GatewayProfileSettings } from '../../../shared/api/schemas/settings.ts';
import { MOST_PROMPTS } from '../../../shared/api/schemas/prompts.ts';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import { ApiRequestError } from '../../../shared/api/unwrap.ts';
import { openAppService } from '../../core/app/app-service.ts';
import { JsonSettingsStore } from '../../core/app/json-settings-store.ts';
import { API_KEY_VARIABLE, MemoryKeyProvider } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import type { SettingsValue } from '../../core/app/settings-store.ts';
import type { Logger } from '../../core/logger.ts';
import { ConfigError, intFlag, oneOf, parseFlags, UsageError, type Command } from '../command.ts';
import { DEFAULT_LIBRARY_DIR, resolveDataDir } from '../data-folder.ts';
import { requireApiKey, startDemoGateway } from '../run/gateway-connection.ts';
import { parseHeaderFlags } from '../run/headers.ts';
import { COMMAND_LINE_PROFILE } from '../run/saved-settings.ts';
import { packageVersion } from '../package-version.ts';
import { SettingsOverlay } from '../settings-overlay.ts';

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
  --gateway URL      the gateway at URL (for this command only; the key: ${API_KEY_VARIABLE})
  --header 'N: v'    an extra header the gateway needs (repeatable; with --gateway)
  --data DIR         the data folder whose settings and models.json are read
                     (default ./.atelier-data); without --demo or --gateway, its gateway

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
    mkdirSync(dataDir, { recursive: true });
    const settings = new SettingsOverlay(new JsonSettingsStore(dataDir), gatewayFlags(values));
    const { gateway, profiles } = settings.read();
    if (gateway.kind === 'remote') {
      // a real gateway needs the key before anything starts, said as every command says it
      const profile = profiles.find((p) => p.name === gateway.profile);
      requireApiKey(
        { kind: 'remote', baseUrl: profile?.baseUrl ?? '', extraHeaders: {} },
        process.env,
      );
    }
    const service = await openAppService({
      dataDir,
      defaultLibraryDir: resolve(DEFAULT_LIBRARY_DIR),
      host: 'cli',
      version: packageVersion(),
      settings,
      keys: new MemoryKeyProvider(process.env),
      logger: stderrLogger(),
      startDemoGateway,
    });
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
    } finally {
      await service.close();
    }
  },
};

/** `--demo` or `--gateway URL` as settings for this run, over the data folder's. */
function gatewayFlags(values: {
  demo?: boolean;
  gateway?: string;
  header?: string[];
}): Partial<SettingsValue> {
  if (values.demo) return { gateway: { kind: 'demo' } };
  if (values.gateway === undefined) return {};
  const parsed = GatewayProfileSettings.safeParse({
    name: COMMAND_LINE_PROFILE,
    baseUrl: withoutCredentials(values.gateway),
    extraHeaders: values.header ? parseHeaderFlags(values.header) : {},
  });
  if (!parsed.success) {
    throw new UsageError(`--gateway ${values.gateway}: ${parsed.error.issues[0]!.message}`);
  }
  return {
    profiles: [parsed.data],
    gateway: { kind: 'remote', profile: COMMAND_LINE_PROFILE },
  };
}

/**
 * Starts the request and prints each prompt as its event brings it, in order; Ctrl+C cancels
 * the request at once. Whatever the events missed, the final `get` prints.
 */
async function printPrompts(
  service: Awaited<ReturnType<typeof openAppService>>,
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

/** The service's own log lines go to stderr: stdout carries the prompts only. */
function stderrLogger(): Logger {
  const line = (level: string, message: string) =>
    process.stderr.write(`atelier prompts: ${level}${message}\n`);
  return {
    info: (message) => line('', message),
    warn: (message) => line('warning: ', message),
    error: (message) => line('error: ', message),
  };
}
