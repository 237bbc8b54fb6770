import { ApiRequestError } from '../../shared/api/api-request-error.ts';
import { AppError } from '../core/app/app-error.ts';
import { redact } from '../../shared/gateway/redact.ts';
import {
  keepYoungGenerationSmall,
  letYoungGenerationGrow,
} from '../core/runtime/young-generation.ts';
import { printable } from '../../shared/text/printable.ts';
import { ConfigError, UsageError, type Command } from './command.ts';
import { describeStoreFailure } from './store-failure.ts';

/**
 * Each command's module is loaded only when it runs: Node strips the types of every file it
 * imports, so loading the engine and the simulator for `status` or `--help` costs time.
 */
interface CommandEntry {
  name: string;
  summary: string;
  /** Imports prompts or runs the engine: a long-lived process that holds much in flight. */
  runsEngine?: boolean;
  load(): Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: 'run',
    summary: 'import a prompt file as a batch and generate its images',
    runsEngine: true,
    load: async () => (await import('./commands/run.ts')).runCommand,
  },
  {
    name: 'edit',
    summary: 'edit pictures with a prompt (and a mask) and save the results',
    runsEngine: true,
    load: async () => (await import('./commands/edit.ts')).editCommand,
  },
  {
    name: 'status',
    summary: "show the data folder's batches, their counts and the queue's pause reason",
    load: async () => (await import('./commands/status.ts')).statusCommand,
  },
  {
    name: 'resume',
    summary: 'carry on with unfinished work after Ctrl+C, a pause or a crash',
    runsEngine: true,
    load: async () => (await import('./commands/resume.ts')).resumeCommand,
  },
  {
    name: 'retry',
    summary: 'queue failed prompts, downloads or missing images again, then run like resume',
    runsEngine: true,
    load: async () => (await import('./commands/retry.ts')).retryCommand,
  },
  {
    name: 'prompts',
    summary: 'ask a text model for prompts on a theme, one a line, ready for atelier run',
    load: async () => (await import('./commands/prompts.ts')).promptsCommand,
  },
  {
    name: 'ui',
    summary: 'open Atelier in your browser, served from this machine',
    runsEngine: true,
    load: async () => (await import('./commands/ui.ts')).uiCommand,
  },
  {
    name: 'gateway',
    summary: 'run the embedded gateway (simulator) on this machine',
    load: async () => (await import('./commands/gateway.ts')).gatewayCommand,
  },
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'atelier — batch image generation through an AI gateway',
    '',
    'Usage: atelier <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Defaults: the queue and its settings live in ./.atelier-data (--data DIR), images go to',
    './atelier-library (--out DIR). The key comes from ATELIER_API_KEY; --demo needs none.',
    '',
    'Exit codes: 0 all succeeded and every image on disk, 1 some work failed, came back',
    'short or the queue paused on a problem, 2 usage or configuration error, 70 internal',
    'error (a bug in Atelier), 130 stopped by Ctrl+C (143 SIGTERM, 129 SIGHUP).',
    '',
    'Try it: atelier run samples/demo-prompts.csv --demo',
    '',
    'Run "atelier <command> --help" for a command\'s options.',
  ].join('\n');
}

/** The help's first paragraph (the usage lines): enough to see what was expected. */
function synopsis(command: Command): string {
  return command.help.split('\n\n')[0] ?? command.help;
}

/**
 * Runs the CLI and returns the exit code: 0 success, 1 some work failed, 2 usage or
 * configuration. Any other error is a bug: it is thrown, for bin/atelier.js to report (70).
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    console.error(`atelier: unknown command "${printable(name)}".\n\n${usage()}`);
    return 2;
  }
  const command = await entry.load();
  // Once the command's modules are loaded: loading them in a young generation kept at its
  // starting size (2 MB) took 47 scavenges instead of 11, 30-70 ms of CPU at every start.
  if (entry.runsEngine) keepYoungGenerationSmall();
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    // A message may quote what the person typed (a --gateway address with the key in it).
    const key = process.env.ATELIER_API_KEY;
    if (error instanceof UsageError) {
      // messages quote arguments and file content: never a raw control character
      console.error(
        redact(
          `atelier ${command.name}: ${printable(error.message, { multiline: true })}\n\n` +
            `${synopsis(command)}\n` +
            `Run "atelier ${command.name} --help" for every option.`,
          key,
        ),
      );
      return 2;
    }
    // (an AppError is the core's word for the same: a setting or input the person must fix)
    if (
      error instanceof ConfigError ||
      ((error instanceof AppError || error instanceof ApiRequestError) && error.code !== 'internal')
    ) {
      console.error(
        redact(`atelier ${command.name}: ${printable(error.message, { multiline: true })}`, key),
      );
      return 2;
    }
    const storeFailure = describeStoreFailure(error);
    if (storeFailure) {
      console.error(`atelier ${command.name}: ${storeFailure}`);
      return 2;
    }
    throw error;
  } finally {
    // (the flags as at start for the code cache written at exit: bin/code-cache.js)
    if (entry.runsEngine) letYoungGenerationGrow();
  }
}
