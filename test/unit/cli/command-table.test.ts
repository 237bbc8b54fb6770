import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../main/cli/index.ts';

describe('the command table', () => {
  it('lists each command under the name and summary its module gives', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
    }
    expect(COMMANDS.map((c) => c.name)).toEqual([
      'run',
      'edit',
      'status',
      'resume',
      'retry',
      'prompts',
      'ui',
      'gateway',
    ]);
  });
});
