import { describe, expect, it } from 'vitest';
import { keepOutsideMask } from '../../../main/core/edits/keep-outside-mask.ts';
import { PictureProblem } from '../../../main/core/edits/pictures.ts';
import { pixels, rectMask, solid } from '../../support/edit-pictures.ts';

describe('keep outside the mask', () => {
  const picture = () => solid(64, 64, [40, 90, 160]);
  const mask = () => rectMask(64, 64, { left: 32, top: 0, width: 32, height: 64 });

  it('brings the picture back where the mask kept it, keeps the edit where it let, with a soft seam', async () => {
    const result = await solid(64, 64, [200, 10, 10]);
    const view = await pixels(await keepOutsideMask(result, 'png', await picture(), await mask()));
    expect(view.channels).toBe(3); // no alpha added
    expect(view.at(5, 30)).toEqual([40, 90, 160]);
    expect(view.at(28, 30)).toEqual([40, 90, 160]);
    expect(view.at(36, 30)).toEqual([200, 10, 10]);
    expect(view.at(60, 30)).toEqual([200, 10, 10]);
    // across the edge, a blend of both
    const seam = view.at(32, 30);
    expect(seam[0]).toBeGreaterThan(40);
    expect(seam[0]).toBeLessThan(200);
  });

  it('pastes onto a result of another size but the same shape, in its format', async () => {
    const result = await solid(128, 128, [200, 10, 10], 'webp');
    const pasted = await keepOutsideMask(result, 'webp', await picture(), await mask());
    const view = await pixels(pasted);
    expect(view).toMatchObject({ width: 128, height: 128 });
    expect(pasted.subarray(8, 12).toString('latin1')).toBe('WEBP');
    const [r] = view.at(10, 64);
    expect(Math.abs(r! - 40)).toBeLessThan(8);
  });

  it('refuses a result of another shape: there is nothing to paste it onto', async () => {
    const result = await solid(128, 64, [200, 10, 10]);
    await expect(keepOutsideMask(result, 'png', await picture(), await mask())).rejects.toThrow(
      PictureProblem,
    );
  });
});
