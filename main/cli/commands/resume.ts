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

The gateway and the library are the data folder's (DIR/settings.json, shared with the app and
"atelier ui"; the demo when no gateway was chosen). Flags given here replace them and are saved
for next time. The key and extra header values are never saved: set ATELIER_API_KEY again, and
give --header again or set ATELIER_GATEWAY_HEADERS.

${SESSION_FLAGS_HELP}

Exit codes as for "atelier run".`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, SESSION_FLAGS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    return continueQueue(values);
  },
};
