import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, summaryOf, workspace } from './harness.ts';

// <data>/models.json: the person's own model entries, merged over the built-in ones.

let ws: ReturnType<typeof workspace>;
afterEach(() => ws?.remove());

function modelsFile(entries: unknown): void {
  mkdirSync(ws.path('.atelier-data'), { recursive: true });
  writeFileSync(ws.path('.atelier-data', 'models.json'), JSON.stringify(entries));
}

describe('models.json in the data folder', () => {
  it('overrides a built-in entry: its sizes are the ones checked at import', async () => {
    ws = workspace({ 'p.txt': 'a lighthouse\na harbour\n' });
    modelsFile([{ kind: 'image', id: 'flux-schnell', protocol: 'openai', sizes: ['64x64'] }]);

    const refused = await runCli(['run', 'p.txt', '--demo', '--size', '128x128'], {
      cwd: ws.dir,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'lines 1, 2: Model flux-schnell does not offer size 128x128. Choose one of: 64x64.',
    );

    const run = await runCli(['run', 'p.txt', '--demo', '--size', '64x64', '--json'], {
      cwd: ws.dir,
    });
    expect(run.code).toBe(0);
    expect(summaryOf(run).jobs.succeeded).toBe(2);
  });

  it('is checked before anything is imported, naming the entry and the field', async () => {
    ws = workspace({ 'p.txt': 'a lighthouse\n' });
    modelsFile([
      { kind: 'video', id: 'veo' },
      { kind: 'video', id: 'x', submitPath: 'tasks' },
    ]);
    const result = await runCli(['run', 'p.txt', '--demo'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^atelier run: \S+models\.json: entry 2 \("x"\), submitPath: Invalid option: .*"video-generations"\. Fix \S+models\.json \(see "Models" in the README\) and run again\.\n$/,
    );
    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect(JSON.parse(status.stdout)).toMatchObject({ batches: [] });
  });

  it.each([
    ['not JSON', '[{', /is not valid JSON/],
    [
      'not an array',
      '{"kind":"video","id":"veo"}',
      /the file \(an array of model entries is expected\)/,
    ],
  ])('refuses a file that is %s', async (_, text, message) => {
    ws = workspace({ 'p.txt': 'a lighthouse\n' });
    mkdirSync(ws.path('.atelier-data'));
    writeFileSync(ws.path('.atelier-data', 'models.json'), text);
    const result = await runCli(['run', 'p.txt', '--demo'], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
