import { describe, expect, it } from 'vitest';
import { parseSize } from '../../../shared/gateway/params.ts';
import { planAdvanced, planEdit, planGeneration } from '../../../main/core/gateway/build/plan.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import type { EditRequest, ImageRequest } from '../../../shared/gateway/requests.ts';

const catalogue = createCatalogue();
const base = { prompt: 'a lighthouse at dusk' };
const problemsOf = (plan: ReturnType<typeof planGeneration>) => (plan.ok ? [] : plan.problems);

describe('parseSize', () => {
  it.each([
    ['1024x1024', false, { form: 'pixels', width: 1024, height: 1024 }],
    ['landscape_16_9', true, { form: 'named', value: 'landscape_16_9' }],
    ['16:9', true, { form: 'named', value: '16:9' }],
  ])('accepts %s (advanced: %s)', (size, advanced, expected) => {
    expect(parseSize(size, advanced)).toEqual(expected);
  });

  it.each([
    ['1024×1024', /multiplication sign ×.*lowercase x.*Write it as 1024x1024/],
    ['1024X1024', /capital X.*Write it as 1024x1024/],
    ['1024*1024', /asterisk.*Write it as 1024x1024/],
    ['1024 x 1024', /spaces.*Write it as 1024x1024/],
    ['big', /not of the form WxH/],
    ['0x512', /zero side/],
    ['16:9', /not of the form WxH/],
  ])('refuses %s and says why', (size, message) => {
    const parsed = parseSize(size, false);
    expect('problem' in parsed && parsed.problem).toMatch(message);
  });
});

describe('planGeneration: protocol by catalogue', () => {
  it.each([
    ['gpt-image-1', 'generations', 'openai'],
    ['qwen-image', 'generations', 'qwen'],
    ['flux-pro', 'advanced', 'advanced'],
    ['flux-schnell', 'generations', 'openai'],
    ['some-new-model', 'generations', 'openai'],
  ])('%s → %s / %s', (model, endpoint, body) => {
    expect(planGeneration({ ...base, model }, catalogue)).toMatchObject({
      ok: true,
      endpoint,
      body,
    });
  });

  it('sends a seeded request for a model on both entries to the advanced entry (it carries seeds)', () => {
    expect(planGeneration({ ...base, model: 'flux-schnell', seed: 7 }, catalogue)).toMatchObject({
      ok: true,
      endpoint: 'advanced',
    });
  });

  it.each([
    ['qwen-image-edit', /only edits images/],
    ['gpt-4o-mini', /text model/],
    ['sora-2', /video model/],
  ])('refuses %s for generation', (model, message) => {
    expect(problemsOf(planGeneration({ ...base, model }, catalogue)).join(' ')).toMatch(message);
  });
});

describe('validation messages (nothing invalid leaves the machine)', () => {
  const cases: Array<[string, ImageRequest, RegExp]> = [
    ['empty prompt', { model: 'gpt-image-1', prompt: '  ' }, /prompt is empty/],
    [
      '× in the size',
      { ...base, model: 'gpt-image-1', size: '1024×1024' },
      /multiplication sign ×/,
    ],
    [
      'size not offered',
      { ...base, model: 'dall-e-3', size: '512x512' },
      /does not offer size 512x512.*1024x1024, 1792x1024, 1024x1792/,
    ],
    [
      'side too large',
      { ...base, model: 'flux-schnell', size: '4096x512' },
      /from 16 to 2048 pixels/,
    ],
    [
      'n too large',
      { ...base, model: 'qwen-image', n: 6 },
      /from 1 to 4 for qwen-image; 6 was asked/,
    ],
    ['n zero', { ...base, model: 'gpt-image-1', n: 0 }, /from 1 to 10/],
    ['n not whole', { ...base, model: 'gpt-image-1', n: 1.5 }, /whole number/],
    [
      'n for a one-image model',
      { ...base, model: 'dall-e-3', n: 2 },
      /exactly 1 image per request/,
    ],
    [
      'seed too large',
      { ...base, model: 'flux-pro', seed: 4_294_967_296 },
      /seed must be a whole number from 0 to 4294967295/,
    ],
    ['negative seed', { ...base, model: 'flux-pro', seed: -1 }, /from 0 to 4294967295; -1/],
    [
      'seed on the OpenAI body',
      { ...base, model: 'gpt-image-1', seed: 1 },
      /seed cannot be sent to the generations endpoint/,
    ],
    [
      'quality not offered',
      { ...base, model: 'gpt-image-1', quality: 'ultra' },
      /low, medium, high or auto; "ultra"/,
    ],
    [
      'quality on a model without',
      { ...base, model: 'dall-e-2', quality: 'hd' },
      /dall-e-2 has no quality setting/,
    ],
    [
      'quality on the Qwen body',
      { ...base, model: 'qwen-image', quality: 'hd' },
      /quality cannot be sent to the generations endpoint \(Qwen-style body\)/,
    ],
    [
      'output format unknown',
      { ...base, model: 'gpt-image-1', output_format: 'gif' },
      /png, jpeg or webp; "gif"/,
    ],
    [
      'output format on a PNG-only model',
      { ...base, model: 'dall-e-3', output_format: 'jpeg' },
      /always makes PNG/,
    ],
    [
      'response format unknown',
      { ...base, model: 'gpt-image-1', response_format: 'base64' },
      /"url" or "b64_json"/,
    ],
    [
      'negative prompt on the OpenAI body',
      { ...base, model: 'gpt-image-1', negative_prompt: 'blur' },
      /negative prompt cannot be sent/,
    ],
    [
      'extra on a model without',
      { ...base, model: 'gpt-image-1', extra: { steps: 4 } },
      /takes no model-specific extra fields/,
    ],
    [
      'image_urls on generations',
      { ...base, model: 'gpt-image-1', image_urls: ['http://x/a.png'] },
      /"image_urls" is not a field/,
    ],
  ];
  it.each(cases)('%s', (_, request, message) => {
    expect(problemsOf(planGeneration(request, catalogue)).join(' ')).toMatch(message);
  });

  it('refuses a seed for a model whose entry takes none, where the body could carry it', () => {
    const noSeed = createCatalogue([
      { kind: 'image', id: 'qwen-lite', protocol: 'qwen', sizes: 'any', seed: false },
    ]);
    expect(problemsOf(planGeneration({ ...base, model: 'qwen-lite', seed: 1 }, noSeed))).toEqual([
      'Model qwen-lite does not take a seed; remove it.',
    ]);
  });

  it('collects every problem at once', () => {
    const problems = problemsOf(
      planGeneration({ model: 'qwen-image', prompt: '', size: '1×1', n: 9 }, catalogue),
    );
    expect(problems).toHaveLength(3);
  });

  it('lets an unknown model through with any WxH size and options, but not a malformed size', () => {
    const ok = planGeneration(
      { ...base, model: 'vendor/new', size: '777x333', quality: 'ultra', n: 3, extra: { a: 1 } },
      catalogue,
    );
    expect(ok.ok).toBe(true);
    expect(
      problemsOf(planGeneration({ ...base, model: 'vendor/new', size: '777×333' }, catalogue)),
    ).toHaveLength(1);
  });

  it('takes user entries over the built-ins', () => {
    const mine = createCatalogue([
      { kind: 'image', id: 'dall-e-3', protocol: 'openai', sizes: ['512x512'], nMax: 2 },
    ]);
    expect(planGeneration({ ...base, model: 'dall-e-3', size: '512x512', n: 2 }, mine).ok).toBe(
      true,
    );
  });
});

describe('planAdvanced', () => {
  it.each([
    [
      'image_urls',
      { image_urls: ['https://example.test/a.png'] },
      /image_urls.*blocked by the gateway/,
    ],
    ['webhook', { webhook: 'https://example.test/hook' }, /webhook.*blocked by the gateway/],
    ['image_urls hidden in extra', { extra: { image_urls: ['x'] } }, /image_urls.*blocked/],
    ['n above 10', { n: 11 }, /from 1 to 10/],
    ['negative prompt', { negative_prompt: 'x' }, /cannot be sent to the advanced entry/],
  ])('refuses %s', (_, fields, message) => {
    const plan = planAdvanced({ ...base, model: 'flux-pro', ...fields } as ImageRequest, catalogue);
    expect(problemsOf(plan).join(' ')).toMatch(message);
  });

  it('accepts named sizes, ratios, seed and extra', () => {
    for (const size of ['square_hd', '9:16', '1000x700']) {
      const plan = planAdvanced(
        { ...base, model: 'flux-pro', size, seed: 4_294_967_295, extra: { guidance_scale: 3 } },
        catalogue,
      );
      expect(plan.ok).toBe(true);
    }
  });

  it('refuses a model that is not on the advanced entry', () => {
    expect(problemsOf(planAdvanced({ ...base, model: 'gpt-image-1' }, catalogue)).join()).toMatch(
      /not offered on the advanced entry/,
    );
  });
});

describe('planEdit', () => {
  const png = { bytes: new Uint8Array([1, 2, 3]), filename: 'a.png', mimeType: 'image/png' };
  const edit = (fields: Partial<EditRequest>): EditRequest => ({
    model: 'gpt-image-1',
    prompt: 'make it blue',
    image: png,
    ...fields,
  });

  it.each([
    ['gpt-image-1', 'multipart'],
    ['qwen-image-edit', 'qwen-json'],
  ])('%s edits with %s', (model, body) => {
    expect(planEdit(edit({ model }), catalogue)).toMatchObject({
      ok: true,
      endpoint: 'edits',
      body,
    });
  });

  it.each([
    ['a model that cannot edit', edit({ model: 'dall-e-3' }), /cannot edit images/],
    [
      'a link for a multipart edit',
      edit({ image: { url: 'https://example.test/a.png' } }),
      /not a link/,
    ],
    ['a mask for a Qwen edit', edit({ model: 'qwen-image-edit', mask: png }), /takes no mask/],
    [
      'a size for a Qwen edit',
      edit({ model: 'qwen-image-edit', size: '512x512' }),
      /size cannot be sent to image edits \(Qwen-style JSON\)/,
    ],
    [
      'a seed for a multipart edit',
      edit({ seed: 3 }),
      /seed cannot be sent to image edits \(multipart form\)/,
    ],
  ])('refuses %s', (_, request, message) => {
    expect(problemsOf(planEdit(request, catalogue)).join(' ')).toMatch(message);
  });
});
