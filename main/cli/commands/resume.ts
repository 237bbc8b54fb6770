import { parseFlags, UsageError, type Command } from '../command.ts';
import { continueQueue } from '../run/continue-queue.ts';
import { SESSION_FLAGS, SESSION_FLAGS_HELP } from '../run/session-flags.ts';

export const resumeCommand: Command = {
  name: 'resume',
  summary: 'carry on with unfinished work after Ctrl+C, a pause or a crash',
  help: `Usage: atelier resume [--data DIR] [--demo | --gateway URL] [options]

Runs the data folder's queue again until it is done: lifts a pause (Ctrl+C, or a key or
balance problem you have fixed), sends the prompts not yet sent and finishes unfinished
downloads. Prompts that were in flight when Atelier was killed are never resent silently:
they become failed (uncertain); "atelier retry --uncertain" sends them again.

The gateway, its extra headers and the library are the ones the data folder last used (saved
in DIR/cli-settings.json; the key is never saved: set ATELIER_API_KEY again). Flags given here
replace them and are saved for next time.

${SESSION_FLAGS_HELP}

Exit codes as for "atelier run".`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, SESSION_FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    return continueQueue(values);
  },
};
