import { describe, expect, it } from 'vitest';
import { BUILT_IN_MODELS, type ImageModelEntry } from '../../../shared/gateway/catalogue.ts';
import {
  composeProblems,
  parseExtra,
  visibilityOf,
} from '../../../renderer/src/screens/compose/params.ts';
import { rowOf, sourceOf } from '../../../renderer/src/screens/compose/source.ts';
import { planJobs } from '../../../renderer/src/screens/compose/matrix.ts';

const model = (id: string) => BUILT_IN_MODELS.find((e) => e.id === id) as ImageModelEntry;

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

  it('refuses what the gateway would, with the reason', () => {
    expect(
      composeProblems([model('dall-e-3'), model('flux-schnell')], {
        sizes: ['1024x1024', '4096x4096', '512×512'],
        seeds: [1],
        ns: [2],
      }),
    ).toEqual([
      'Model dall-e-3 does not offer size 4096x4096. Choose one of: 1024x1024, 1792x1024, 1024x1792.',
      'Size "512×512" uses the multiplication sign ×; the gateway only accepts a lowercase x, as in 1024x1024. Write it as 512x512.',
      'Model dall-e-3 makes exactly 1 image per request; n = 2 was asked.',
      'Model dall-e-3 does not take a seed: clear the seeds or leave it out.',
      'Size 4096x4096 is outside what model flux-schnell makes: each side must be from 16 to 2048 pixels.',
    ]);
    expect(
      composeProblems([model('flux-schnell')], { sizes: ['256x256'], seeds: [1, 2], ns: [] }),
    ).toEqual([]);
  });

  it('sends shared fields only to the models that take them', () => {
    const shared = { quality: 'hd', outputFormat: 'webp', negativePrompt: 'blur', extra: { g: 3 } };
    expect(rowOf({ prompt: 'p', model: 'dall-e-3', n: 1 }, shared, model)).toEqual({
      prompt: 'p',
      model: 'dall-e-3',
      n: 1,
      quality: 'hd',
    });
    expect(rowOf({ prompt: 'p', model: 'flux-pro', n: 1, seed: 4 }, shared, model)).toEqual({
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
      { models: ['flux-pro'], sizes: [], seeds: [], ns: [] },
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
