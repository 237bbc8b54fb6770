import { describe, expect, it } from 'vitest';
import {
  advancedBody,
  editForm,
  imageFieldName,
  imageUrlOf,
  openAiBody,
  qwenBody,
  qwenEditBody,
} from '../../../main/core/gateway/build/bodies.ts';

describe('request bodies per protocol', () => {
  it('OpenAI body (2.1): only the given fields, the vendor bag as extra_fields', () => {
    expect(
      openAiBody({
        model: 'gpt-image-1',
        prompt: 'p',
        n: 2,
        size: '1024x1024',
        quality: 'high',
        response_format: 'b64_json',
        output_format: 'webp',
      }),
    ).toEqual({
      model: 'gpt-image-1',
      prompt: 'p',
      n: 2,
      size: '1024x1024',
      quality: 'high',
      response_format: 'b64_json',
      output_format: 'webp',
    });
    expect(openAiBody({ model: 'm', prompt: 'p', extra: { a: 1 } })).toEqual({
      model: 'm',
      prompt: 'p',
      extra_fields: { a: 1 },
    });
  });

  it('advanced body (2.1 + 2.2): seed and extra', () => {
    expect(
      advancedBody({ model: 'flux-pro', prompt: 'p', size: '16:9', seed: 0, extra: { steps: 4 } }),
    ).toEqual({ model: 'flux-pro', prompt: 'p', size: '16:9', seed: 0, extra: { steps: 4 } });
  });

  it('Qwen body (2.3): prompt as a message, size as W*H, options in parameters', () => {
    expect(
      qwenBody({
        model: 'qwen-image',
        prompt: 'a cat',
        size: '1328x1328',
        n: 2,
        negative_prompt: 'blur',
        prompt_extend: false,
        watermark: true,
        response_format: 'url',
      }),
    ).toEqual({
      model: 'qwen-image',
      input: { messages: [{ role: 'user', content: [{ text: 'a cat' }] }] },
      parameters: {
        negative_prompt: 'blur',
        prompt_extend: false,
        watermark: true,
        n: 2,
        size: '1328*1328',
      },
    });
    expect(qwenBody({ model: 'qwen-image', prompt: 'x' })).not.toHaveProperty('parameters');
  });

  it('Qwen edit body (2.4): an image item and a text item', () => {
    expect(
      qwenEditBody(
        { model: 'qwen-image-edit', prompt: 'blue', image: { url: 'https://x/a.png' }, n: 1 },
        ['https://x/a.png'],
      ),
    ).toEqual({
      model: 'qwen-image-edit',
      input: {
        messages: [{ role: 'user', content: [{ image: 'https://x/a.png' }, { text: 'blue' }] }],
      },
      parameters: { n: 1 },
    });
  });

  it('turns picture bytes into a data URL for JSON edits', () => {
    expect(
      imageUrlOf({ bytes: new Uint8Array([137, 80]), filename: 'a.png', mimeType: 'image/png' }),
    ).toBe('data:image/png;base64,iVA=');
  });

  it('multipart edit form (2.4): files and text fields', async () => {
    const form = editForm({
      model: 'gpt-image-1',
      prompt: 'blue',
      image: { bytes: new Uint8Array([1, 2, 3]), filename: 'in.png', mimeType: 'image/png' },
      mask: { bytes: new Uint8Array([4]), filename: 'mask.png', mimeType: 'image/png' },
      n: 2,
      size: '1024x1024',
    });
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('n')).toBe('2');
    expect(form.get('size')).toBe('1024x1024');
    expect(form.has('response_format')).toBe(false);
    const image = form.get('image') as File;
    expect(image.name).toBe('in.png');
    expect(image.type).toBe('image/png');
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([1, 2, 3]);
    expect((form.get('mask') as File).name).toBe('mask.png');
  });

  it('Qwen edit body with several pictures: their items in order, then the text', () => {
    expect(
      qwenEditBody({ model: 'm', prompt: 'mix', image: [{ url: 'u1' }, { url: 'u2' }] }, [
        'u1',
        'u2',
      ]).input.messages[0]!.content,
    ).toEqual([{ image: 'u1' }, { image: 'u2' }, { text: 'mix' }]);
  });

  it.each([
    [1, 'auto', 'image'],
    [3, 'auto', 'image[]'],
    [1, 'image[]', 'image[]'],
    [3, 'image', 'image'],
  ] as const)('names %i picture(s) with setting %s as "%s"', (count, setting, name) => {
    expect(imageFieldName(count, setting)).toBe(name);
  });

  it('multipart form: one name for every picture, never both', async () => {
    const picture = (byte: number) => ({
      bytes: new Uint8Array([byte]),
      filename: `in-${byte}.png`,
      mimeType: 'image/png',
    });
    const one = editForm({ model: 'm', prompt: 'p', image: picture(1) });
    expect(one.getAll('image')).toHaveLength(1);
    expect(one.has('image[]')).toBe(false);

    const several = editForm({ model: 'm', prompt: 'p', image: [picture(1), picture(2)] });
    expect(several.has('image')).toBe(false);
    const parts = several.getAll('image[]') as File[];
    expect(parts.map((part) => part.name)).toEqual(['in-1.png', 'in-2.png']);

    const always = editForm({ model: 'm', prompt: 'p', image: picture(1) }, 'image[]');
    expect(always.has('image')).toBe(false);
    expect(always.getAll('image[]')).toHaveLength(1);
    const keys = [...always.keys()];
    expect(keys.filter((key) => key.startsWith('image'))).toEqual(['image[]']);
  });
});
