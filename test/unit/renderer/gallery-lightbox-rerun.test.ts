import { describe, expect, it } from 'vitest';
import { builtInModels } from '../../../shared/gateway/catalogue.ts';
import { composePlan } from '../../../renderer/src/screens/compose/compose-plan.ts';
import { rowOf } from '../../../renderer/src/screens/compose/source.ts';
import {
  parametersJson,
  rerunDraft,
} from '../../../renderer/src/screens/gallery/lightbox/rerun-draft.ts';
import { detail } from './gallery-lightbox-fixtures.ts';

/** The one row Compose would send for a draft: what re-running really asks for. */
function rowFor(draft: ReturnType<typeof rerunDraft>) {
  const composed = composePlan(draft, builtInModels());
  expect(composed.inputErrors).toEqual([]);
  expect(composed.plan?.count).toBe(1);
  return rowOf(composed.plan!.at(0), composed.shared, composed.lookup);
}

describe('rerunDraft', () => {
  it('fills Compose so it sends the same prompt, model, size, seed and parameters', () => {
    const draft = rerunDraft(
      detail({
        negativePrompt: 'blur',
        params: {
          quality: 'high',
          output_format: 'webp',
          negative_prompt: 'blur',
          response_format: 'b64_json',
          extra: { guidance: 3.5, style: 'film', tags: ['a', 'b'] },
        },
      }),
    );
    expect(draft).toMatchObject({
      models: ['my-model'],
      sizes: '1024x768',
      seeds: '42',
      ns: '1',
      quality: 'high',
      outputFormat: 'webp',
      negativePrompt: 'blur',
      extra: 'guidance=3.5\nstyle=film\ntags=["a","b"]',
      file: null,
      variables: {},
    });
    expect(rowFor(draft)).toEqual({
      prompt: 'a red fox',
      model: 'my-model',
      size: '1024x768',
      seed: 42,
      n: 1,
      quality: 'high',
      output_format: 'webp',
      negative_prompt: 'blur',
      extra: { guidance: 3.5, style: 'film', tags: ['a', 'b'] },
    });
  });

  it('keeps template characters and several lines literal: one prompt, as written', () => {
    const prompt = 'a {red|blue} fox \\ owl\nsecond line\n  \nthird';
    const draft = rerunDraft(detail({ prompt }));
    expect(draft.split).toBe('paragraph');
    expect(rowFor(draft).prompt).toBe('a {red|blue} fox \\ owl\nsecond line\nthird');
  });

  it('leaves seed and size empty when the image had none, and keeps a video’s seconds', () => {
    const draft = rerunDraft(detail({ seed: null, size: null, params: { seconds: '8' } }));
    expect(draft).toMatchObject({ seeds: '', sizes: '', extra: 'seconds=8' });
  });
});

describe('parametersJson', () => {
  it('is the model, size, seed and every parameter', () => {
    const json = parametersJson(detail({ params: { quality: 'high' } }));
    expect(JSON.parse(json)).toEqual({
      model: 'my-model',
      size: '1024x768',
      seed: 42,
      quality: 'high',
    });
  });
});
