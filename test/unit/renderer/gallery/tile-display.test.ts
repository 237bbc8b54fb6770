import { describe, expect, it } from 'vitest';
import { formatSize } from '../../../../renderer/src/format.ts';
import { facetOptions } from '../../../../renderer/src/screens/gallery/filter-options.ts';
import {
  DEFAULT_DISPLAY,
  displayFrom,
  pictureBox,
} from '../../../../renderer/src/screens/gallery/tile-display.ts';

describe('the gallery filters from what the library holds', () => {
  it('offers the sizes and models the images have, with counts, and keeps the chosen one', () => {
    const sizes = [
      { value: null, count: 3 },
      { value: '768x512', count: 12 },
      { value: '1024x1024', count: 1_204 },
    ];
    expect(facetOptions(sizes, null, formatSize)).toEqual([
      { value: '768x512', label: '768 × 512 (12)' },
      { value: '1024x1024', label: '1024 × 1024 (1,204)' },
    ]);
    // deleted since it was chosen: still there, so the select shows what filters the view
    expect(facetOptions(sizes, '256x256', formatSize).at(-1)).toEqual({
      value: '256x256',
      label: '256 × 256 (none now)',
    });
    expect(facetOptions(undefined, null)).toEqual([]);
  });
});

describe('whole pictures in the grid', () => {
  it('fits a picture in its cell with its proportions', () => {
    expect(pictureBox(768, 512, 180)).toEqual({ width: 180, height: 120 });
    expect(pictureBox(512, 768, 180)).toEqual({ width: 120, height: 180 });
    expect(pictureBox(1024, 1024, 180)).toEqual({ width: 180, height: 180 });
    expect(pictureBox(null, 512, 180)).toEqual({ width: 180, height: 180 });
    expect(pictureBox(4000, 10, 180)).toEqual({ width: 180, height: 1 });
  });

  it('reads the stored display back, the default for anything else', () => {
    expect(displayFrom('{"shape":"whole","captions":true}')).toEqual({
      shape: 'whole',
      captions: true,
    });
    expect(displayFrom('{"shape":"round","captions":"yes"}')).toEqual(DEFAULT_DISPLAY);
    expect(displayFrom('not json')).toEqual(DEFAULT_DISPLAY);
    expect(displayFrom(null)).toEqual(DEFAULT_DISPLAY);
  });
});
