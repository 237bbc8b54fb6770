import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openAppService } from '../../core/app/app-service.ts';
import { MemoryKeyProvider } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import { ensureAppBuilt, RENDERER_NEED } from '../app-build/ensure-built.ts';
import { SettingsFile } from '../../core/settings/settings-file.ts';
import { startDemoGateway } from '../../simulator/demo-gateway.ts';
import { ConfigError, intFlag, parseFlags, UsageError, type Command } from '../command.ts';
import { resolveDataDir } from '../data-folder.ts';
import { stderrLogger } from '../stderr-logger.ts';
import { packageVersion } from '../package-version.ts';
import { settingsNotes } from '../run/cli-service.ts';
import { parseHeaderFlags } from '../run/headers.ts';
import { settingsPlan } from '../run/settings.ts';
import { webHostActions } from '../../web/web-host-actions.ts';
import { startWebHost } from '../../web/web-host.ts';
import { offerNewAddresses } from '../ui/new-addresses.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The built renderer (`npm run build`; built on start when missing or stale). */
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');

export const uiCommand: Command = {
  name: 'ui',
  summary: 'open Atelier in your browser, served from this machine',
  help: `Usage: atelier ui [--demo | --gateway URL] [--port P] [--data DIR] [--out DIR] [--no-open]

Serves the Atelier app to your browser on 127.0.0.1 (never another address) and runs the
queue in this process. Prints one line with the address on stdout, and opens it in your browser
when run from a terminal. The address opens Atelier once, within about a minute (its code is
then used up): press Enter here for a new one (kill -USR2 <pid> when it runs in the
background), or use "New window" in Atelier. Each window keeps its session until it is closed
or this stops. Ctrl+C stops (requests in flight finish first).

  --demo             use the built-in simulator: nothing is charged (the default until a
                     gateway is chosen for the data folder)
  --gateway URL      use the gateway at URL (saved as the "Command line" gateway profile)
  --header 'N: v'    an extra header the gateway needs (repeatable; with --gateway)
  --port P           listen on port P (default: a free port)
  --data DIR         the data folder (default ./.atelier-data)
  --out DIR          the library folder the images go to (default ./atelier-library)
  --no-open          do not open a browser

Settings: the data folder's (DIR/settings.json), the same the desktop app and the other
commands use; a change made by one of them while this runs shows here at once.

Key: ATELIER_API_KEY, or enter it in Settings (kept in this process's memory only, never
written to disk, never sent to the browser). Extra header values likewise: entered in
Settings, given with --header, or ATELIER_GATEWAY_HEADERS (a JSON object of names to values).`,

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
    const logger = stderrLogger('atelier ui');
    const settings = new SettingsFile({ dataDir, logger });
    for (const line of settingsNotes(settings)) process.stderr.write(`${line}\n`);
    const keys = new MemoryKeyProvider(process.env);
    // one library per data folder: the one the settings name, else --out or ./atelier-library
    const plan = settingsPlan(
      {
        ...(values.demo ? { demo: true } : {}),
        ...(values.gateway !== undefined ? { gateway: values.gateway } : {}),
        ...(values.header ? { headers: parseHeaderFlags(values.header) } : {}),
        ...(values.out !== undefined ? { out: values.out } : {}),
      },
      settings.read(),
      process.cwd(),
    );
    const service = await openAppService({
      dataDir,
      defaultLibraryDir: plan.library,
      host: 'web',
      version: packageVersion(),
      settings,
      keys,
      logger,
      startDemoGateway,
      actions: webHostActions(),
    });
    try {
      if (plan.patch) await localClient(service).settings.update(plan.patch);
      await service.startQueue();
      const host = await startWebHost({
        app: service,
        rendererDir: RENDERER_DIR,
        port,
        logger,
        secretsToRedact: () => keys.all(),
      });
      const address = host.newAddress();
      process.stdout.write(`Atelier is running at ${address}\n`);
      process.stderr.write(
        'The address opens Atelier once, within a minute: press Enter here for a new one' +
          (process.platform === 'win32' ? '.\n' : ` (or kill -USR2 ${process.pid}).\n`),
      );
      await describeStart(service);
      if (process.stdout.isTTY && !values['no-open']) {
        const { default: open } = await import('open');
        await open(address).catch((error: Error) =>
          logger.warn(`could not open a browser (${error.message}): open the address above.`),
        );
      }
      const asker = offerNewAddresses(() =>
        process.stdout.write(`Atelier is running at ${host.newAddress()}\n`),
      );
      await untilStopped();
      asker.stop();
      process.stderr.write('Stopping: requests in flight finish first…\n');
      await host.close();
    } finally {
      await service.close();
      settings.close();
    }
    return 0;
  },
};

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
    // (a missing header value's message says what to do itself)
    const advice =
      state.problem.code === 'key-missing' && !state.problem.details?.['headers']
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
