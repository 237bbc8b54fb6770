import { gatewayCommand } from './commands/gateway.ts';
import { UsageError, type Command } from './command.ts';

const COMMANDS: Command[] = [gatewayCommand];

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
    'Run "atelier <command> --help" for a command\'s options.',
  ].join('\n');
}

/** Runs the CLI and returns the exit code: 0 success, 1 some work failed, 2 usage or configuration. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`atelier: unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.help);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`atelier ${command.name}: ${error.message}\n\n${command.help}`);
      return 2;
    }
    throw error;
  }
}
