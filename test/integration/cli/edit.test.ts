import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEmbeddedMetadataFromFile } from '../../../main/core/library/read-metadata.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { rectMask, sidewaysJpeg, solid } from '../../support/edit-pictures.ts';
import { runCli, summaryOf, workspace } from './harness.ts';

// `atelier edit` end to end: a child process against the simulator in this one, checking what
// the gateway received, what landed in the library, the summary and the exit codes.

let ws: ReturnType<typeof workspace>;
let gateway: RunningGateway | null = null;
afterEach(async () => {
  await gateway?.close();
  gateway = null;
  ws?.remove();
});

async function pictures(files: Record<string, Buffer | Promise<Buffer>>) {
  for (const [name, bytes] of Object.entries(files)) writeFileSync(ws.path(name), await bytes);
}

const remote = () => ['--gateway', gateway!.url, '--model', 'flux-schnell', '--json'];

describe('atelier edit', () => {
  it('edits several pictures with one prompt and one mask: a job each, the mask made for each, the summary of run', async () => {
    ws = workspace();
    gateway = await startGateway();
    await pictures({
      'photo.jpg': sidewaysJpeg(80, 40), // shown 40×80
      'b.png': solid(20, 40, [10, 200, 10]),
      'mask.png': rectMask(40, 80, { left: 0, top: 0, width: 40, height: 40 }),
    });
    const result = await runCli(
      ['edit', 'photo.jpg', 'b.png', '--prompt', 'make it glow', '--mask', 'mask.png', ...remote()],
      { cwd: ws.dir, key: gateway.key },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = summaryOf(result);
    expect(summary).toMatchObject({
      outcome: 'done',
      exitCode: 0,
      batch: { name: 'Edit: make it glow' },
      jobs: { total: 2, succeeded: 2, failed: 0 },
      images: { written: 2, onDisk: 2, failedDownloads: 0 },
      requestsSent: 2,
    });

    await gateway.idle();
    const received = gateway
      .receivedEdits()
      .sort((a, b) => a.image.width - b.image.width)
      .map(({ image, mask, imageField, fields }) => ({
        image: [image.width, image.height, image.format],
        mask: [mask!.width, mask!.height, mask!.hasAlpha, mask!.transparent, mask!.partial],
        imageField,
        prompt: fields.prompt,
      }));
    // the sideways photo sent upright; the mask (top half) scaled to the smaller picture
    expect(received).toEqual([
      {
        image: [20, 40, 'png'],
        mask: [20, 40, true, 20 * 20, 0],
        imageField: 'image',
        prompt: 'make it glow',
      },
      {
        image: [40, 80, 'png'],
        mask: [40, 80, true, 40 * 40, 0],
        imageField: 'image',
        prompt: 'make it glow',
      },
    ]);

    const folder = summary.batch!.folder;
    const files = readdirSync(folder).filter((name) => name.endsWith('.png'));
    expect(files).toHaveLength(2);
    const embedded = await readEmbeddedMetadataFromFile(join(folder, files[0]!));
    expect(embedded.metadata?.parameters).toMatchObject({ mask: true });
    expect(['photo.jpg', 'b.png']).toContain(embedded.metadata?.parameters?.edited_from);
  });

  it('edits one picture with a file of prompts, one job a line, in the demo', async () => {
    ws = workspace({ 'ideas.txt': 'a red door\n\na blue door\na green door\n' });
    await pictures({ 'house.png': solid(32, 32, [120, 120, 120]) });
    const result = await runCli(
      ['edit', 'house.png', '--prompts', 'ideas.txt', '--demo', '--n', '2', '--json'],
      { cwd: ws.dir },
    );
    expect(result.code).toBe(0);
    expect(summaryOf(result)).toMatchObject({
      batch: { name: 'Edits of house.png' },
      jobs: { total: 3, succeeded: 3 },
      images: { written: 6, onDisk: 6 },
    });
  });

  it('refuses what cannot be sent, naming each picture, the mask and the prompt, and queues nothing', async () => {
    ws = workspace();
    gateway = await startGateway();
    await pictures({
      'wide.png': solid(64, 32, [1, 2, 3]),
      'flat-mask.png': solid(64, 32, [0, 0, 0]),
    });
    const result = await runCli(
      [
        'edit',
        'wide.png',
        'missing.png',
        '--prompt',
        'x'.repeat(1001),
        '--mask',
        'flat-mask.png',
        ...remote(),
        '--model',
        'dall-e-2',
      ],
      { cwd: ws.dir, key: gateway.key },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The edit has 4 problems; nothing was queued.');
    expect(result.stderr).toContain(
      'prompt on line 1: The prompt is 1001 characters long; dall-e-2 takes at most 1000.',
    );
    expect(result.stderr).toContain('the mask flat-mask.png: The mask has no transparency');
    expect(result.stderr).toContain('wide.png: dall-e-2 edits square pictures only');
    expect(result.stderr).toContain('missing.png: missing.png cannot be read: it does not exist.');
    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect(JSON.parse(status.stdout)).toMatchObject({ batches: [] });
    await gateway.idle();
    expect(gateway.ledger.entries()).toEqual([]);
  });

  it('warns of a mask stretched to a picture of another shape, and still edits it', async () => {
    ws = workspace();
    gateway = await startGateway();
    await pictures({
      'wide.png': solid(64, 32, [1, 2, 3]),
      'mask.png': rectMask(16, 16, { left: 0, top: 0, width: 8, height: 16 }),
    });
    const result = await runCli(
      ['edit', 'wide.png', '--prompt', 'x', '--mask', 'mask.png', ...remote()],
      { cwd: ws.dir, key: gateway.key },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'Warning:\n  wide.png: The mask is 1:1 and the picture 2:1: the mask is stretched to fit, so what it covers moves.\n',
    );
  });

  it('exits 1 when the gateway refuses the edit, as run does when a prompt fails', async () => {
    ws = workspace();
    gateway = await startGateway({ editImageField: 'image[]' });
    await pictures({ 'a.png': solid(16, 16, [1, 2, 3]) });
    const result = await runCli(['edit', 'a.png', '--prompt', 'x', ...remote()], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(result.code).toBe(1);
    expect(summaryOf(result)).toMatchObject({ outcome: 'done', jobs: { total: 1, failed: 1 } });
  });

  it.each([
    [['a.png'], 'give one prompt with --prompt TEXT, or several in a file'],
    [['a.png', '--prompt', 'x', '--prompts', 'p.txt'], 'not both'],
    [['--prompt', 'x'], 'give the pictures to edit'],
    [['a.png', '--prompt', 'one\ntwo'], '--prompt is one prompt on one line'],
    [['a.png', '--prompt', 'x', '--gateway', 'http://127.0.0.1:1'], 'choose a model that edits'],
  ])('refuses %j with a usage error (exit 2)', async (args, message) => {
    ws = workspace();
    const result = await runCli(['edit', ...args], { cwd: ws.dir, key: 'sk-test-0000' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
