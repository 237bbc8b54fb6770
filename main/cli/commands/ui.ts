import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayProfileSettings } from '../../../shared/api/schemas/settings.ts';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import type { SettingsValue } from '../../core/app/settings-store.ts';
import { openAppService } from '../../core/app/app-service.ts';
import { JsonSettingsStore } from '../../core/app/json-settings-store.ts';
import { MemoryKeyProvider } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import type { Logger } from '../../core/logger.ts';
import { ensureAppBuilt, RENDERER_NEED } from '../app-build/ensure-built.ts';
import { ConfigError, intFlag, parseFlags, UsageError, type Command } from '../command.ts';
import { DEFAULT_LIBRARY_DIR, resolveDataDir } from '../data-folder.ts';
import { packageVersion } from '../package-version.ts';
import { startDemoGateway } from '../run/gateway-connection.ts';
import { parseHeaderFlags } from '../run/headers.ts';
import { COMMAND_LINE_PROFILE, loadSettings } from '../run/saved-settings.ts';
import { webHostActions } from '../../web/web-host-actions.ts';
import { newToken, startWebHost } from '../../web/web-host.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The built renderer (`npm run build`; built on start when missing or stale). */
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');

export const uiCommand: Command = {
  name: 'ui',
  summary: 'open Atelier in your browser, served from this machine',
  help: `Usage: atelier ui [--demo | --gateway URL] [--port P] [--data DIR] [--out DIR] [--no-open]

Serves the Atelier app to your browser on 127.0.0.1 (never another address) and runs the
queue in this process. Prints one line with the address on stdout, and opens it in your browser
when run from a terminal. A random token in that address is needed once; the browser keeps it
in a cookie for this start only. Ctrl+C stops (requests in flight finish first).

  --demo             use the built-in simulator: nothing is charged (the default until a
                     gateway is set in Settings)
  --gateway URL      use the gateway at URL (saved as the "Command line" gateway profile)
  --header 'N: v'    an extra header the gateway needs (repeatable; with --gateway)
  --port P           listen on port P (default: a free port)
  --data DIR         the data folder (default ./.atelier-data)
  --out DIR          the library folder the images go to (default ./atelier-library)
  --no-open          do not open a browser

Key: ATELIER_API_KEY, or enter it in Settings (kept in this process's memory only, never
written to disk, never sent to the browser).`,

  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      demo: { type: 'boolean' },
      gateway: { type: 'string' },
      header: { type: 'string', multiple: true },
      port: { type: 'string' },
      data: { type: 'string' },
      out: { type: 'string' },
      'no-open': { type: 'boolean' },
    });
    if (positionals.length > 0) {
      throw new UsageError(`atelier ui takes no file (got ${positionals.join(', ')}).`);
    }
    if (values.demo && values.gateway !== undefined) {
      throw new UsageError('give either --demo or --gateway URL, not both.');
    }
    if (values.header && values.gateway === undefined) {
      throw new UsageError('--header goes with --gateway URL.');
    }
    const port = intFlag(values.port, '--port', 0, 65_535) ?? 0;
    // a fresh clone, or sources changed since the last build: built now, with a line saying so
    await ensureAppBuilt({
      need: RENDERER_NEED,
      say: (line) => process.stderr.write(`atelier ui: ${line}\n`),
    }).catch((error: Error) => {
      throw new ConfigError(error.message);
    });
    const dataDir = resolveDataDir(values.data);
    mkdirSync(dataDir, { recursive: true });
    const settings = new JsonSettingsStore(dataDir);
    const keys = new MemoryKeyProvider(process.env);
    const logger = stderrLogger();
    // one library per data folder: the one the CLI used here, if it did
    const defaultLibrary = loadSettings(dataDir)?.library ?? resolve(DEFAULT_LIBRARY_DIR);
    const patch = flagSettings(values, settings.read(), defaultLibrary);
    const service = await openAppService({
      dataDir,
      defaultLibraryDir: defaultLibrary,
      host: 'web',
      version: packageVersion(),
      settings,
      keys,
      logger,
      startDemoGateway,
      actions: webHostActions(),
    });
    try {
      if (patch) await localClient(service).settings.update(patch);
      await service.startQueue();
      const token = newToken();
      const host = await startWebHost({
        app: service,
        rendererDir: RENDERER_DIR,
        port,
        token,
        logger,
        secretsToRedact: async () => [await keys.get()].filter((k): k is string => Boolean(k)),
      });
      const address = `${host.url}?token=${token}`;
      process.stdout.write(`Atelier is running at ${address}\n`);
      await describeStart(service);
      if (process.stdout.isTTY && !values['no-open']) {
        const { default: open } = await import('open');
        await open(address).catch((error: Error) =>
          logger.warn(`could not open a browser (${error.message}): open the address above.`),
        );
      }
      await untilStopped();
      process.stderr.write('Stopping: requests in flight finish first…\n');
      await host.close();
    } finally {
      await service.close();
    }
    return 0;
  },
};

/** What the flags change in the saved settings, or null. */
function flagSettings(
  values: { demo?: boolean; gateway?: string; header?: string[]; out?: string },
  saved: SettingsValue,
  defaultLibrary: string,
): Partial<SettingsValue> | null {
  const patch: Partial<SettingsValue> = {};
  if (values.demo) patch.gateway = { kind: 'demo' };
  if (values.gateway !== undefined) {
    const address = {
      baseUrl: withoutCredentials(values.gateway),
      extraHeaders: values.header ? parseHeaderFlags(values.header) : {},
    };
    const kept = saved.profiles.find((p) => p.name === COMMAND_LINE_PROFILE);
    // (the gateway-specific names keep what Settings says, or the interface's defaults)
    const parsed = GatewayProfileSettings.safeParse({
      ...kept,
      name: COMMAND_LINE_PROFILE,
      ...address,
    });
    if (!parsed.success) {
      throw new UsageError(`--gateway ${address.baseUrl}: ${parsed.error.issues[0]!.message}`);
    }
    const profile = parsed.data;
    patch.profiles = [...saved.profiles.filter((p) => p.name !== COMMAND_LINE_PROFILE), profile];
    patch.gateway = { kind: 'remote', profile: COMMAND_LINE_PROFILE };
  }
  if (values.out !== undefined) patch.library = resolve(values.out);
  // kept from the first start: a later start from another folder must find the same library
  else if (saved.library === null) patch.library = defaultLibrary;
  return Object.keys(patch).length > 0 ? patch : null;
}

/** Demo mode and a queue that could not start are said on stderr, with the way out. */
async function describeStart(service: Awaited<ReturnType<typeof openAppService>>) {
  const info = await service.api.app.info({});
  if (info.notice) {
    process.stderr.write(
      `${info.notice} Set your gateway in Settings, or start with --gateway URL.\n`,
    );
  }
  const state = await service.api.queue.state({});
  if (state.problem) {
    const advice =
      state.problem.code === 'key-missing'
        ? ' Enter the key in Settings, or set ATELIER_API_KEY and start again.'
        : '';
    process.stderr.write(`The queue is not running: ${state.problem.message}${advice}\n`);
  }
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    // (SIGHUP: the terminal closed; requests in flight still finish, never left uncertain)
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const stop = () => {
      for (const signal of signals) process.off(signal, stop);
      resolve();
    };
    for (const signal of signals) process.on(signal, stop);
  });
}

/** Everything the host logs goes to stderr: stdout carries the address line only. */
function stderrLogger(): Logger {
  const line = (level: string, message: string, details: unknown[]) =>
    process.stderr.write(
      `atelier ui: ${level}${message}${details.length ? ` ${details.map(String).join(' ')}` : ''}\n`,
    );
  return {
    info: (message, ...details) => line('', message, details),
    warn: (message, ...details) => line('warning: ', message, details),
    error: (message, ...details) => line('error: ', message, details),
  };
}
