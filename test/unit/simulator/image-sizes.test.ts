import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../main/simulator/http.ts';
import { DEFAULT_MODELS, type ImageModelSpec } from '../../../main/simulator/models.ts';
import {
  checkModelSize,
  parseAdvancedSize,
  parseQwenSize,
  parseWxH,
  sizeForSource,
} from '../../../main/simulator/images/sizes.ts';

const model = (id: string) =>
  DEFAULT_MODELS.find((m): m is ImageModelSpec => m.id === id && m.kind === 'image')!;

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseWxH', () => {
  it('reads WxH with a lowercase x', () => {
    expect(parseWxH('1024x768')).toEqual({ width: 1024, height: 768 });
  });

  it('refuses the multiplication sign and says to use a lowercase x', () => {
    const error = errorOf(() => parseWxH('1024×1024'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_size');
    expect(error.param).toBe('size');
    expect(error.message).toContain('×');
    expect(error.message).toContain('lowercase x');
  });

  it.each(['1024X1024', '1024*1024', '1024 x 1024', '0x10', 'big', '1024x'])(
    'refuses %j with the expected form in the message',
    (text) => {
      const error = errorOf(() => parseWxH(text));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/lowercase x/);
    },
  );
});

describe('parseAdvancedSize', () => {
  it.each([
    ['square_hd', 1024, 1024],
    ['landscape_4_3', 1024, 768],
    ['portrait_4_3', 768, 1024],
    ['landscape_16_9', 1024, 576],
    ['portrait_16_9', 576, 1024],
    ['1:1', 1024, 1024],
    ['16:9', 1024, 576],
    ['9:16', 576, 1024],
    ['640x480', 640, 480],
  ])('maps %s to %ix%i', (text, width, height) => {
    expect(parseAdvancedSize(text)).toEqual({ width, height });
  });

  it('refuses other names and ratios, listing the accepted ones', () => {
    const error = errorOf(() => parseAdvancedSize('4:3'));
    expect(error.status).toBe(400);
    expect(error.message).toContain('square_hd');
    expect(errorOf(() => parseAdvancedSize('512×512')).message).toContain('lowercase x');
  });
});

describe('parseQwenSize', () => {
  it('reads W*H and refuses WxH with the asterisk form in the message', () => {
    expect(parseQwenSize('1328*1328')).toEqual({ width: 1328, height: 1328 });
    const error = errorOf(() => parseQwenSize('1328x1328'));
    expect(error.param).toBe('parameters.size');
    expect(error.message).toContain('W*H');
  });
});

describe('checkModelSize', () => {
  it('accepts only listed sizes for a model with a list, naming them', () => {
    expect(checkModelSize(model('dall-e-3'), { width: 1792, height: 1024 })).toEqual({
      width: 1792,
      height: 1024,
    });
    const error = errorOf(() => checkModelSize(model('dall-e-3'), { width: 512, height: 512 }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('1024x1792');
  });

  it('accepts any size within the side range for an "any" model', () => {
    const flux = model('flux-schnell');
    expect(checkModelSize(flux, { width: 16, height: 2048 })).toBeTruthy();
    expect(errorOf(() => checkModelSize(flux, { width: 15, height: 64 })).message).toContain(
      'between 16 and 2048',
    );
    expect(errorOf(() => checkModelSize(flux, { width: 64, height: 2049 })).status).toBe(400);
  });

  it('shows sizes with an asterisk for Qwen-style bodies', () => {
    const error = errorOf(() =>
      checkModelSize(model('qwen-image'), { width: 64, height: 64 }, 'parameters.size', '*'),
    );
    expect(error.message).toContain('1328*1328');
    expect(error.message).not.toContain('1328x1328');
  });
});

describe('sizeForSource', () => {
  it('keeps the input size when allowed, scales it into range otherwise', () => {
    const edit = model('qwen-image-edit');
    expect(sizeForSource(edit, 800, 600)).toEqual({ width: 800, height: 600 });
    expect(sizeForSource(edit, 4096, 2048)).toEqual({ width: 2048, height: 1024 });
    expect(sizeForSource(edit, 32, 32)).toEqual({ width: 64, height: 64 });
  });

  it('falls back to the default size for a listed-size model', () => {
    expect(sizeForSource(model('dall-e-2'), 512, 512)).toEqual({ width: 512, height: 512 });
    expect(sizeForSource(model('dall-e-2'), 300, 200)).toEqual({ width: 1024, height: 1024 });
  });
});
