import { describe, expect, it } from 'vitest';
import { builtInModels } from '../../../shared/gateway/catalogue.ts';
import { composePlan } from '../../../renderer/src/screens/compose/compose-plan.ts';
import {
  draftFrom,
  EMPTY_DRAFT,
  type ComposeDraft,
} from '../../../renderer/src/screens/compose/draft.ts';
import { sourceOf } from '../../../renderer/src/screens/compose/source.ts';

const draft = (patch: Partial<ComposeDraft>): ComposeDraft => ({
  ...EMPTY_DRAFT,
  text: 'a paper boat\na red kite',
  models: ['flux-schnell'],
  mode: 'video',
  ...patch,
});

describe("Compose's video mode", () => {
  it('multiplies prompts by video models, sizes and durations, one video per job', () => {
    const planned = composePlan(
      draft({ videoModels: ['sora-2', 'kling-v2'], videoSizes: '1280x720', seconds: '' }),
      builtInModels(),
    );
    expect(planned.refusals).toEqual([]);
    expect(planned.plan?.count).toBe(4);
    const source = sourceOf(planned.plan!, planned.row);
    expect(source).toEqual({
      kind: 'rows',
      rows: [
        { prompt: 'a paper boat', model: 'sora-2', size: '1280x720' },
        { prompt: 'a paper boat', model: 'kling-v2', size: '1280x720' },
        { prompt: 'a red kite', model: 'sora-2', size: '1280x720' },
        { prompt: 'a red kite', model: 'kling-v2', size: '1280x720' },
      ],
    });
    // the chosen models' sizes and durations to pick from
    expect(planned.video).toEqual({
      sizeChoices: ['720x1280', '1280x720', '1024x1024'],
      secondsChoices: ['4', '5', '8', '10', '12'],
    });
  });

  it('gives each video model the sizes × durations, durations fastest; zip pairs them by prompt', () => {
    const multiplied = composePlan(
      draft({
        text: 'a paper boat',
        videoModels: ['sora-2'],
        videoSizes: '1280x720, 720x1280',
        seconds: '4, 8',
      }),
      builtInModels(),
    );
    expect(multiplied.refusals).toEqual([]);
    expect(sourceOf(multiplied.plan!, multiplied.row)).toEqual({
      kind: 'rows',
      rows: [
        { prompt: 'a paper boat', model: 'sora-2', size: '1280x720', seconds: '4' },
        { prompt: 'a paper boat', model: 'sora-2', size: '1280x720', seconds: '8' },
        { prompt: 'a paper boat', model: 'sora-2', size: '720x1280', seconds: '4' },
        { prompt: 'a paper boat', model: 'sora-2', size: '720x1280', seconds: '8' },
      ],
    });
    const zipped = composePlan(
      draft({ videoModels: ['sora-2'], seconds: '4, 8', combine: 'zip' }),
      builtInModels(),
    );
    expect(sourceOf(zipped.plan!, zipped.row)).toEqual({
      kind: 'rows',
      rows: [
        { prompt: 'a paper boat', model: 'sora-2', seconds: '4' },
        { prompt: 'a red kite', model: 'sora-2', seconds: '8' },
      ],
    });
    expect(
      composePlan(
        draft({ videoModels: ['sora-2'], seconds: '4, 8, 12', combine: 'zip' }),
        builtInModels(),
      ).inputErrors,
    ).toEqual([
      'Zip pairs prompt i with item i of each list: there are 2 prompts but 3 durations. Give 2 durations (or one, used for every prompt), or multiply instead.',
    ]);
  });

  it("refuses what a model's entry does not list, in the words the submission uses", () => {
    const planned = composePlan(
      draft({ videoModels: ['sora-2'], videoSizes: '1024x1024, 1280×720', seconds: '4, 5' }),
      builtInModels(),
    );
    expect(planned.refusals).toEqual([
      'sora-2 makes videos of size 720x1280, 1280x720; 1024x1024 was asked.',
      'Size "1280×720" uses the multiplication sign ×; write a lowercase x, as in 1280x720.',
      'sora-2 makes videos of 4, 8, 12 seconds; 5 was asked.',
    ]);
    expect(composePlan(draft({ videoModels: ['flux-schnell'] }), builtInModels()).refusals).toEqual(
      [
        'flux-schnell is not a video model here: add it to your models (Settings › Models) as a video entry, or leave it out.',
      ],
    );
    expect(
      composePlan(draft({ videoModels: ['sora-2'], seconds: '4.5' }), builtInModels()).inputErrors,
    ).toEqual(['Durations must be whole numbers from 1 to 3600; “4.5” is not.']);
  });

  it('keeps each mode its own choices, and reads a saved draft of either', () => {
    const planned = composePlan(
      draft({ mode: 'image', videoModels: ['sora-2'], seconds: '4', sizes: '256x256' }),
      builtInModels(),
    );
    expect(planned.video).toBe(null);
    expect(sourceOf(planned.plan!, planned.row)).toMatchObject({
      rows: [{ prompt: 'a paper boat', model: 'flux-schnell', size: '256x256', n: 1 }, {}],
    });
    const saved = draftFrom({ mode: 'video', videoModels: ['sora-2', 3], seconds: '8' });
    expect(saved).toMatchObject({ mode: 'video', videoModels: ['sora-2'], seconds: '8' });
    expect(draftFrom({}).mode).toBe('image');
  });
});
