import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../main/simulator/http.ts';
import { DEFAULT_MODELS, type ImageModelSpec } from '../../../main/simulator/models.ts';
import {
  parseAdvanced,
  parseOpenAiGeneration,
  parseQwenGeneration,
  rejectClosedAdvancedFields,
} from '../../../main/simulator/images/validate-generations.ts';
import {
  parseMultipartEdit,
  parseQwenEdit,
} from '../../../main/simulator/images/validate-edits.ts';

const model = (id: string) =>
  DEFAULT_MODELS.find((m): m is ImageModelSpec => m.id === id && m.kind === 'image')!;
const ADVANCED = '/v1/svc/images/advanced';

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

const qwenBody = (text: string, parameters?: object) => ({
  model: 'qwen-image',
  input: { messages: [{ role: 'user', content: [{ text }] }] },
  ...(parameters ? { parameters } : {}),
});

describe('OpenAI generations body', () => {
  it('fills the defaults of the model', () => {
    const request = parseOpenAiGeneration(
      { model: 'dall-e-2', prompt: 'a fox' },
      model('dall-e-2'),
    );
    expect(request).toMatchObject({
      prompt: 'a fox',
      n: 1,
      size: { width: 1024, height: 1024 },
      format: 'png',
      responseFormat: 'url',
      seed: null,
      revisePrompt: false,
    });
  });

  it('reads every accepted field', () => {
    const request = parseOpenAiGeneration(
      {
        model: 'gpt-image-1',
        prompt: 'a fox',
        n: 3,
        size: '1536x1024',
        quality: 'high',
        response_format: 'b64_json',
        output_format: 'webp',
      },
      model('gpt-image-1'),
    );
    expect(request).toMatchObject({
      n: 3,
      size: { width: 1536, height: 1024 },
      format: 'webp',
      responseFormat: 'b64_json',
      revisePrompt: true,
    });
  });

  it.each([
    [{ seed: 1 }, 400, 'unknown_parameter', 'seed'],
    [{ image_urls: [] }, 400, 'unknown_parameter', 'image_urls'],
    [{ style: 'vivid' }, 400, 'unknown_parameter', 'style'],
    [{ quality: 'hd' }, 400, 'unsupported_parameter', 'quality'],
    [{ output_format: 'jpeg' }, 400, 'unsupported_parameter', 'output_format'],
    [{ extra_fields: { steps: 4 } }, 400, 'unsupported_parameter', 'extra_fields'],
    [{ n: '2' }, 422, 'invalid_type', 'n'],
    [{ n: 1.5 }, 422, 'invalid_type', 'n'],
    [{ n: 0 }, 400, 'invalid_value', 'n'],
    [{ n: 11 }, 400, 'invalid_value', 'n'],
    [{ size: 1024 }, 422, 'invalid_type', 'size'],
    [{ size: '1024×1024' }, 400, 'invalid_size', 'size'],
    [{ size: '640x480' }, 400, 'invalid_size', 'size'],
    [{ response_format: 'file' }, 400, 'invalid_value', 'response_format'],
    [{ prompt: '' }, 400, 'missing_prompt', 'prompt'],
    [{ prompt: '   ' }, 400, 'missing_prompt', 'prompt'],
    [{ prompt: 42 }, 422, 'invalid_type', 'prompt'],
    [{ input: {} }, 400, 'unknown_parameter', 'input'],
  ])('refuses %j on dall-e-2 with %i %s', (change, status, code, param) => {
    const error = errorOf(() =>
      parseOpenAiGeneration({ model: 'dall-e-2', prompt: 'a fox', ...change }, model('dall-e-2')),
    );
    expect([error.status, error.code, error.param]).toEqual([status, code, param]);
    expect(error.message.length).toBeGreaterThan(20);
  });

  it('refuses a missing prompt', () => {
    const error = errorOf(() => parseOpenAiGeneration({ model: 'dall-e-2' }, model('dall-e-2')));
    expect([error.status, error.code]).toEqual([400, 'missing_prompt']);
  });

  it('takes extra_fields where the model does, and they change the picture settings', () => {
    const flux = model('flux-schnell');
    const a = parseOpenAiGeneration({ model: 'flux-schnell', prompt: 'x' }, flux);
    const b = parseOpenAiGeneration(
      { model: 'flux-schnell', prompt: 'x', extra_fields: { num_inference_steps: 4 } },
      flux,
    );
    expect(a.detail).not.toBe(b.detail);
    const error = errorOf(() =>
      parseOpenAiGeneration({ model: 'flux-schnell', prompt: 'x', extra_fields: 'x' }, flux),
    );
    expect(error.status).toBe(422);
  });

  it('keeps n within the model range (dall-e-3 makes one image)', () => {
    const error = errorOf(() =>
      parseOpenAiGeneration({ model: 'dall-e-3', prompt: 'x', n: 2 }, model('dall-e-3')),
    );
    expect(error.message).toContain('between 1 and 1');
  });
});

describe('advanced entry body', () => {
  const flux = model('flux-pro');

  it('refuses image_urls and webhook with a hint', () => {
    for (const field of ['image_urls', 'webhook']) {
      const error = errorOf(() => rejectClosedAdvancedFields({ [field]: 'x' }));
      expect([error.status, error.code, error.param]).toEqual([400, 'field_closed', field]);
      expect(error.message).toMatch(/Remove/);
    }
    expect(() => parseAdvanced({ prompt: 'x', webhook: 'http://h' }, flux, ADVANCED)).toThrow(
      ApiError,
    );
  });

  it('reads named sizes, seed, n up to 10 and both extra bags', () => {
    const request = parseAdvanced(
      {
        model: 'flux-pro',
        prompt: 'x',
        size: 'portrait_16_9',
        seed: 4294967295,
        n: 10,
        output_format: 'jpeg',
        extra: { guidance_scale: 3 },
        extra_fields: { style: 'ink' },
      },
      flux,
      ADVANCED,
    );
    expect(request).toMatchObject({
      size: { width: 576, height: 1024 },
      seed: 4294967295,
      n: 10,
      format: 'jpeg',
    });
    expect(request.detail).toContain('guidance_scale');
    expect(request.detail).toContain('ink');
  });

  it.each([
    [{ seed: -1 }, 400],
    [{ seed: 4294967296 }, 400],
    [{ seed: '7' }, 422],
    [{ n: 11 }, 400],
    [{ extra: [] }, 422],
    [{ size: '4:3' }, 400],
    [{ callback: 'x' }, 400],
  ])('refuses %j with %i', (change, status) => {
    const error = errorOf(() =>
      parseAdvanced({ model: 'flux-pro', prompt: 'x', ...change }, flux, ADVANCED),
    );
    expect(error.status).toBe(status);
  });
});

describe('Qwen-style generations body', () => {
  const qwen = model('qwen-image');

  it('joins the texts into the prompt and reads parameters', () => {
    const request = parseQwenGeneration(
      {
        model: 'qwen-image',
        input: {
          messages: [{ role: 'user', content: [{ text: 'a red kite' }, { text: 'over hills' }] }],
        },
        parameters: {
          size: '1664*928',
          negative_prompt: 'blur',
          prompt_extend: true,
          watermark: true,
          n: 2,
          seed: 9,
        },
      },
      qwen,
    );
    expect(request).toMatchObject({
      prompt: 'a red kite\nover hills',
      size: { width: 1664, height: 928 },
      n: 2,
      seed: 9,
      watermark: true,
      revisePrompt: true,
      format: 'png',
    });
  });

  it.each([
    [{ ...qwenBody('x'), prompt: 'x' }, 400, 'prompt'],
    [{ ...qwenBody('x'), size: '1328x1328' }, 400, 'size'],
    [{ model: 'qwen-image' }, 400, 'input'],
    [qwenBody(''), 400, 'input.messages[].content[].text'],
    [qwenBody('x', { size: '1328x1328' }), 400, 'parameters.size'],
    [qwenBody('x', { size: '1024*1024' }), 400, 'parameters.size'],
    [qwenBody('x', { quality: 'hd' }), 400, 'parameters.quality'],
    [qwenBody('x', { watermark: 'yes' }), 422, 'parameters.watermark'],
    [qwenBody('x', { n: 5 }), 400, 'parameters.n'],
    [
      {
        model: 'qwen-image',
        input: { messages: [{ role: 'user', content: [{ image: 'http://x' }] }] },
      },
      400,
      'input.messages[0].content[0].image',
    ],
    [{ model: 'qwen-image', input: { messages: [] } }, 422, 'input.messages'],
    [
      { model: 'qwen-image', input: { messages: [{ content: [] }] } },
      422,
      'input.messages[0].role',
    ],
  ])('refuses %j with %i on %s', (body, status, param) => {
    const error = errorOf(() => parseQwenGeneration(body, qwen));
    expect([error.status, error.param]).toEqual([status, param]);
  });
});

describe('multipart edit form', () => {
  const png = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
  const form = (fields: Record<string, string | Blob>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };

  it('reads the fields; no size means "the input size"', () => {
    const parsed = parseMultipartEdit(
      form({ model: 'dall-e-2', prompt: 'add a hat', image: png, mask: png, n: '2' }),
      model('dall-e-2'),
    );
    expect(parsed.request).toMatchObject({ prompt: 'add a hat', n: 2, size: null });
    expect(parsed.image.size).toBe(3);
    expect(parsed.mask?.size).toBe(3);
  });

  it('accepts image[] as the image field', () => {
    const parsed = parseMultipartEdit(
      form({ model: 'dall-e-2', prompt: 'x', 'image[]': png, size: '512x512' }),
      model('dall-e-2'),
    );
    expect(parsed.request.size).toEqual({ width: 512, height: 512 });
  });

  it.each([
    [{ prompt: 'x' }, 400, 'image'],
    [{ prompt: 'x', image: 'not a file' }, 422, 'image'],
    [{ image: png }, 400, 'prompt'],
    [{ prompt: 'x', image: png, n: 'two' }, 422, 'n'],
    [{ prompt: 'x', image: png, n: '11' }, 400, 'n'],
    [{ prompt: 'x', image: png, size: '512×512' }, 400, 'size'],
    [{ prompt: 'x', image: png, quality: 'hd' }, 400, 'quality'],
    [{ prompt: 'x', image: png, seed: '1' }, 400, 'seed'],
  ])('refuses %j with %i on %s', (fields, status, param) => {
    const error = errorOf(() =>
      parseMultipartEdit(form({ model: 'dall-e-2', ...fields }), model('dall-e-2')),
    );
    expect([error.status, error.param]).toEqual([status, param]);
  });
});

describe('Qwen-style edit body', () => {
  const edit = model('qwen-image-edit');
  const body = (content: object[], parameters?: object) => ({
    model: 'qwen-image-edit',
    input: { messages: [{ role: 'user', content }] },
    ...(parameters ? { parameters } : {}),
  });

  it('reads the image URL, the texts and the parameters', () => {
    const parsed = parseQwenEdit(
      body([{ image: 'https://example.com/a.png' }, { text: 'make it blue' }], {
        n: 2,
        negative_prompt: 'noise',
        watermark: false,
        prompt_extend: false,
      }),
      edit,
    );
    expect(parsed.imageUrl).toBe('https://example.com/a.png');
    expect(parsed.request).toMatchObject({ prompt: 'make it blue', n: 2, size: null });
  });

  it.each([
    [body([{ text: 'x' }]), 400, 'input.messages'],
    [body([{ image: 'a' }, { image: 'b' }, { text: 'x' }]), 400, 'input.messages'],
    [body([{ image: 'a' }]), 400, 'input.messages[].content[].text'],
    [body([{ image: 'a', text: 'x' }]), 400, 'input.messages[0].content[0]'],
    [body([{ image: 'a' }, { text: 'x' }], { size: '64*64' }), 400, 'parameters.size'],
    [body([{ image: 5 }, { text: 'x' }]), 422, 'input.messages[0].content[0].image'],
  ])('refuses %j with %i on %s', (json, status, param) => {
    const error = errorOf(() => parseQwenEdit(json, edit));
    expect([error.status, error.param]).toEqual([status, param]);
  });
});
