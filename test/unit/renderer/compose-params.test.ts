import { describe, expect, it } from 'vitest';
import { builtInModels, type ImageModelEntry } from '../../../shared/gateway/catalogue.ts';
import { parseExtra, visibilityOf } from '../../../renderer/src/screens/compose/params.ts';
import { describeModel, modelParams } from '../../../renderer/src/screens/compose/model-params.ts';
import { rowOf, sourceOf } from '../../../renderer/src/screens/compose/source.ts';
import { planJobs } from '../../../renderer/src/screens/compose/matrix.ts';

const model = (id: string) => builtInModels().find((e) => e.id === id) as ImageModelEntry;

describe('parameters per model', () => {
  it('shows only what the catalogue says each model takes', () => {
    const dalle = visibilityOf(model('dall-e-3'));
    expect(dalle.size).toEqual({ kind: 'list', sizes: ['1024x1024', '1792x1024', '1024x1792'] });
    expect(dalle.quality).toEqual(['standard', 'hd']);
    expect(dalle).toMatchObject({
      seed: false,
      negativePrompt: false,
      extra: false,
      outputFormats: [],
    });
    expect(dalle.n).toEqual({ min: 1, max: 1 });
    const qwen = visibilityOf(model('qwen-image'));
    expect(qwen).toMatchObject({ quality: null, seed: true, negativePrompt: true });
    const flux = visibilityOf(model('flux-pro'));
    expect(flux.size).toMatchObject({ kind: 'any', minSide: 64, maxSide: 2048 });
    expect(flux.size.kind === 'any' && flux.size.named).toContain('16:9');
  });

  it('gives each model the shared values it takes, and says what it leaves out', () => {
    const shared = {
      sizes: ['1024x1024', '1536x1024'],
      seeds: [],
      ns: [4],
      quality: 'hd',
      outputFormat: '',
    };
    // today's complaint: gpt-image-1 + dall-e-3 with these blocked the whole batch
    const planned = modelParams([model('gpt-image-1'), model('dall-e-3')], shared, {});
    expect(planned.problems).toEqual([]);
    expect(planned.models).toEqual([
      {
        model: 'gpt-image-1',
        sizes: ['1024x1024', '1536x1024'],
        seeds: [],
        ns: [4],
        leftOut: ['quality hd: it does not take it'],
      },
      {
        model: 'dall-e-3',
        sizes: ['1024x1024'],
        seeds: [],
        ns: [1],
        quality: 'hd',
        leftOut: [
          '1536x1024: not one of its sizes',
          'n 4: it makes exactly 1 per request (n 1 sent)',
        ],
      },
    ]);
    expect(describeModel(planned.models[1]!, '1024x1024')).toBe('1024x1024 · n 1 · hd');
  });

  it('refuses what no chosen model takes, and what is set for a model that refuses it', () => {
    const planned = modelParams(
      [model('dall-e-3'), model('flux-schnell')],
      {
        sizes: ['1024x1024', '4096x4096', '512×512'],
        seeds: [1],
        ns: [],
        quality: '',
        outputFormat: '',
      },
      { 'dall-e-3': {}, 'flux-schnell': { ns: '12', quality: 'hd' } },
    );
    expect(planned.problems).toEqual([
      'Size "512×512" uses the multiplication sign ×; the gateway only accepts a lowercase x, as in 1024x1024. Write it as 512x512.',
      'The number of images (n) must be a whole number from 1 to 10 for flux-schnell; 12 was asked.',
      'Model dall-e-3 does not offer size 4096x4096. Choose one of: 1024x1024, 1792x1024, 1024x1792.',
      'Size 4096x4096 is outside what model flux-schnell makes: each side must be from 16 to 2048 pixels.',
    ]);
    // the seed goes to flux-schnell only
    expect(planned.models.map((m) => m.seeds)).toEqual([[], [1]]);
    expect(planned.models[0]!.leftOut).toContain('seeds: it takes none');
    expect(
      modelParams(
        [model('dall-e-3')],
        { sizes: [], seeds: [1], ns: [], quality: '', outputFormat: '' },
        {},
      ).problems,
    ).toEqual([
      'Model dall-e-3 does not take a seed: clear the seeds or choose a model that takes one.',
    ]);
  });

  it('sends negative prompt and extra fields only to the models that take them', () => {
    const shared = { negativePrompt: 'blur', extra: { g: 3 } };
    expect(rowOf({ prompt: 'p', model: 'dall-e-3', n: 1, quality: 'hd' }, shared, model)).toEqual({
      prompt: 'p',
      model: 'dall-e-3',
      n: 1,
      quality: 'hd',
    });
    expect(
      rowOf({ prompt: 'p', model: 'flux-pro', n: 1, seed: 4, outputFormat: 'webp' }, shared, model),
    ).toEqual({
      prompt: 'p',
      model: 'flux-pro',
      n: 1,
      seed: 4,
      output_format: 'webp',
      extra: { g: 3 },
    });
  });

  it('past 10,000 rows the source is JSON Lines text', () => {
    const prompts = Array.from({ length: 10_001 }, (_, i) => `p${i}`);
    const result = planJobs(
      prompts,
      { models: [{ model: 'flux-pro', sizes: [], seeds: [], ns: [] }] },
      'multiply',
    );
    if ('error' in result) throw new Error(result.error);
    const source = sourceOf(result.plan, (job) => rowOf(job, { extra: { g: 3 } }, model));
    expect(source.kind).toBe('text');
    if (source.kind !== 'text') return;
    expect(source.fileName).toBe('composed.jsonl');
    expect(JSON.parse(source.text.split('\n')[0]!)).toEqual({
      g: 3,
      prompt: 'p0',
      model: 'flux-pro',
      n: 1,
    });
  });

  it('reads extra fields as key=value lines, JSON values where they parse', () => {
    expect(parseExtra('guidance=3.5\nstyle = vivid\n\nflag=true')).toEqual({
      extra: { guidance: 3.5, style: 'vivid', flag: true },
    });
    expect(parseExtra('no equals sign')).toEqual({
      error: 'Extra fields, line 1: write key=value (e.g. guidance=3.5).',
    });
  });
});
