import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import { planEdits, type EditPicture, type EditSpec } from '../../../main/core/edits/edit-plan.ts';
import type { EditInputFiles } from '../../../main/core/edits/input-files.ts';
import { maskFor, readMask } from '../../../main/core/edits/pictures.ts';
import {
  halves,
  noise,
  pixels,
  rectMask,
  sidewaysJpeg,
  solid,
} from '../../support/edit-pictures.ts';

const catalogue = createCatalogue();
const picture = (
  label: string,
  bytes: Buffer | Promise<Buffer>,
  imageId: number | null = null,
): EditPicture => ({
  label,
  name: label,
  imageId,
  read: async () => bytes,
});
const mask = (bytes: Buffer | Promise<Buffer>) => ({ label: 'the mask', read: async () => bytes });
const spec = (patch: Partial<EditSpec>): EditSpec => ({
  pictures: [],
  prompts: 'make it blue',
  mask: null,
  model: 'flux-schnell',
  keepOutsideMask: false,
  ...patch,
});
const check = async (patch: Partial<EditSpec>) =>
  (await planEdits(spec(patch), { catalogue })).check;

describe('checking an edit before anything is sent', () => {
  it('one picture, several prompts: a job per prompt, images by n, per model for the estimate', async () => {
    const result = await check({
      pictures: [picture('a.png', solid(32, 32, [10, 20, 30]), 7)],
      prompts: 'a hat\n\na scarf\n',
      mask: mask(rectMask(32, 32, { left: 0, top: 0, width: 16, height: 16 })),
      n: 3,
    });
    expect(result).toEqual({
      jobs: 2,
      images: 6,
      errors: [],
      bad: 0,
      warnings: [],
      models: { 'flux-schnell': { jobs: 2, images: 6 } },
    });
  });

  it('names each bad row: an unreadable picture, a non-square one for dall-e-2, one too big, a prompt too long', async () => {
    const result = await check({
      model: 'dall-e-2',
      pictures: [
        picture('image 1 (b/1.png)', Buffer.from('not a picture'), 1),
        picture('image 2 (b/2.png)', solid(60, 40, [0, 0, 0]), 2),
        picture('image 3 (b/3.png)', noise(1200, 1200), 3),
        picture('image 4 (b/4.png)', solid(64, 64, [0, 0, 0]), 4),
      ],
      prompts: 'x'.repeat(1001),
    });
    expect(result.errors).toEqual([
      {
        label: 'prompt on line 1',
        line: 1,
        message: 'The prompt is 1001 characters long; dall-e-2 takes at most 1000. Shorten it.',
      },
      { label: 'image 1 (b/1.png)', imageId: 1, message: expect.stringContaining('not a picture') },
      {
        label: 'image 2 (b/2.png)',
        imageId: 2,
        message: expect.stringContaining('square pictures only; this one is 60×40'),
      },
      {
        label: 'image 3 (b/3.png)',
        imageId: 3,
        message: expect.stringMatching(
          /As a PNG this picture is 4\.\d MB; dall-e-2 takes files up to 4\.0 MB/,
        ),
      },
    ]);
    expect(result).toMatchObject({ bad: 4, jobs: 0, images: 0 });
  });

  it('refuses a mask without transparency, and one with nothing transparent', async () => {
    const flat = await check({
      pictures: [picture('p', solid(8, 8, [1, 2, 3]))],
      mask: mask(solid(8, 8, [0, 0, 0])),
    });
    expect(flat.errors).toEqual([
      {
        label: 'the mask',
        message: expect.stringContaining('has no transparency (alpha channel)'),
      },
    ]);
    const opaque = await check({
      pictures: [picture('p', solid(8, 8, [1, 2, 3]))],
      mask: mask(rectMask(8, 8, { left: 0, top: 0, width: 0, height: 0 })),
    });
    expect(opaque.errors[0]?.message).toContain('no transparent pixel');
  });

  it('many pictures, one mask: scaled to the same shape, stretched to another with a warning naming the picture', async () => {
    const result = await check({
      pictures: [
        picture('wide', solid(64, 32, [0, 0, 0]), 1),
        picture('wide, larger', solid(128, 64, [0, 0, 0]), 2),
        picture('square', solid(50, 50, [0, 0, 0]), 3),
      ],
      mask: mask(rectMask(64, 32, { left: 0, top: 0, width: 32, height: 32 })),
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      {
        label: 'square',
        imageId: 3,
        message:
          'The mask is 2:1 and the picture 1:1: the mask is stretched to fit, so what it covers moves.',
      },
    ]);
    expect(result.jobs).toBe(3);
  });

  it('refuses what the model cannot do: no edits, a seed on a multipart edit, a mask for a Qwen JSON edit', async () => {
    const one = [picture('p', solid(8, 8, [0, 0, 0]))];
    expect((await check({ model: 'dall-e-3', pictures: one })).errors).toEqual([
      {
        label: 'the model',
        message: expect.stringMatching(
          /^dall-e-3 cannot edit pictures; choose one that can: .*gpt-image-1/,
        ),
      },
    ]);
    expect((await check({ pictures: one, seed: 4 })).errors).toEqual([
      {
        label: 'the settings',
        message: 'A seed cannot be sent to image edits (multipart form); remove it.',
      },
    ]);
    const qwen = await check({
      model: 'qwen-image-edit',
      pictures: [picture('p', solid(64, 64, [0, 0, 0]))],
      mask: mask(rectMask(64, 64, { left: 0, top: 0, width: 8, height: 8 })),
    });
    expect(qwen.errors.map((e) => e.message)).toContain(
      'qwen-image-edit takes no mask; describe the change in the prompt instead.',
    );
  });

  it('refuses several pictures with several prompts, and warns that no mask keeps nothing', async () => {
    const result = await check({
      pictures: [picture('a', solid(8, 8, [0, 0, 0])), picture('b', solid(8, 8, [0, 0, 0]))],
      prompts: 'one\ntwo',
      keepOutsideMask: true,
    });
    expect(result.errors).toEqual([
      { label: 'the request', message: expect.stringContaining('2 pictures and 2 prompts') },
    ]);
    expect(result.warnings[0]).toMatchObject({
      label: 'the settings',
      message: expect.stringContaining('no mask'),
    });
    expect(result.jobs).toBe(0);
  });
});

describe('the picture and mask as sent', () => {
  it('turn a sideways JPEG upright (its EXIF orientation applied) and send it as a PNG', async () => {
    const inputs = memoryInputs();
    const { planned, check: result } = await planEdits(
      spec({ pictures: [picture('photo.jpg', sidewaysJpeg(40, 20))] }),
      { catalogue, inputs },
    );
    expect(result.bad).toBe(0);
    const edit = planned![0]!.edit;
    expect(edit).toMatchObject({ width: 20, height: 40, maskSha256: null });
    const sent = await pixels(inputs.kept.get(edit.imageSha256)!);
    expect(sent).toMatchObject({ width: 20, height: 40 });
    // stored with red on the left; turned clockwise, red is on top
    expect(sent.at(10, 5)[0]).toBeGreaterThan(200);
    expect(sent.at(10, 35)[2]).toBeGreaterThan(200);
  });

  it('a mask scaled to its picture: the same size, PNG with alpha, hard-edged, black under it', async () => {
    const source = await readMask(
      await rectMask(10, 10, { left: 0, top: 0, width: 5, height: 10 }),
    );
    const made = await maskFor(source, { width: 100, height: 100 });
    const view = await pixels(made.png);
    expect(view).toMatchObject({ width: 100, height: 100, channels: 4 });
    const alphas = new Set<number>();
    for (let i = 0; i < view.data.length; i += 4) {
      expect([view.data[i], view.data[i + 1], view.data[i + 2]]).toEqual([0, 0, 0]);
      alphas.add(view.data[i + 3]!);
    }
    expect([...alphas].sort((a, b) => a - b)).toEqual([0, 255]);
    expect(view.at(10, 50)[3]).toBe(0);
    expect(view.at(90, 50)[3]).toBe(255);
    expect(made.edited).toBeCloseTo(0.5, 1);
  });

  it('keeps a picture whose pixels are the same as the same bytes twice (content-addressed)', async () => {
    const inputs = memoryInputs();
    const bytes = await halves(16, 16);
    const { planned } = await planEdits(
      spec({ pictures: [picture('a', bytes), picture('b', bytes)] }),
      { catalogue, inputs },
    );
    expect(planned![0]!.edit.imageSha256).toBe(planned![1]!.edit.imageSha256);
    expect(inputs.kept.size).toBe(1);
  });
});

/** An EditInputFiles stand-in that keeps what it is given in memory. */
function memoryInputs() {
  const kept = new Map<string, Buffer>();
  return {
    kept,
    put: async (bytes: Buffer, sha256: string) => {
      kept.set(sha256, bytes);
      return sha256;
    },
  } as unknown as EditInputFiles & { kept: Map<string, Buffer> };
}
