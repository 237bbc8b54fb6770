import { describe, expect, it } from 'vitest';
import { builtInModels, type ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import {
  chosenModel,
  editInputOf,
  editModels,
  jobsOf,
  runBlockers,
  takesMask,
  type EditCheck,
} from '../../../../renderer/src/screens/edit/edit-form.ts';
import { EMPTY_FORM } from '../../../../renderer/src/screens/edit/edit-state.ts';
import { NO_SPEND_CHECK } from '../../../support/spend-fixtures.ts';

const models = editModels(builtInModels());
const model = (id: string) => models.find((m) => m.id === id)!;

const ready: EditCheck = {
  jobs: 2,
  images: 2,
  errors: [],
  bad: 0,
  warnings: [],
  models: {},
  spend: NO_SPEND_CHECK,
};

describe('the edit form', () => {
  it('offers only the models that edit, as the catalogue says', () => {
    expect(models.map((m) => m.id)).toEqual([
      'gpt-image-1',
      'dall-e-2',
      'qwen-image-edit',
      'flux-schnell',
    ]);
  });

  it('knows which take a mask: a Qwen JSON edit sends the picture alone', () => {
    expect(takesMask(model('gpt-image-1'))).toBe(true);
    expect(takesMask(model('qwen-image-edit'))).toBe(false);
  });

  it('uses the last model chosen while it edits, else the starting model that edits, else the first', () => {
    expect(chosenModel({ ...EMPTY_FORM, model: 'dall-e-2' }, models, 'flux-schnell')?.id).toBe(
      'dall-e-2',
    );
    expect(chosenModel({ ...EMPTY_FORM, model: 'gone' }, models, 'flux-schnell')?.id).toBe(
      'flux-schnell',
    );
    // the starting model of Settings does not edit: the catalogue's first that does
    expect(chosenModel(EMPTY_FORM, models, 'dall-e-3')?.id).toBe('gpt-image-1');
    expect(chosenModel(EMPTY_FORM, [], null)).toBeNull();
  });

  it('sends only what the model takes, the mask only when painted', () => {
    const form = {
      ...EMPTY_FORM,
      prompts: 'a hat',
      n: 2,
      size: ' 1024x1024 ',
      quality: 'high',
      outputFormat: 'webp',
      keepOutsideMask: true,
    };
    expect(editInputOf([4, 5], form, model('gpt-image-1'), 'bWFzaw==')).toEqual({
      images: [4, 5],
      prompts: 'a hat',
      model: 'gpt-image-1',
      n: 2,
      size: '1024x1024',
      quality: 'high',
      output_format: 'webp',
      mask: { png: 'bWFzaw==' },
      keepOutsideMask: true,
    });
    // dall-e-2 takes no quality and no format; with no mask nothing is kept outside it
    const plain = editInputOf([4], form, model('dall-e-2'), null);
    expect(plain).toEqual({
      images: [4],
      prompts: 'a hat',
      model: 'dall-e-2',
      n: 2,
      size: '1024x1024',
      keepOutsideMask: false,
    });
  });

  it('counts the jobs as the service will, or says why there are none', () => {
    expect(jobsOf(1, 'a\n\nb\n')).toEqual({ ok: true, jobs: 2 });
    expect(jobsOf(3, 'a')).toEqual({ ok: true, jobs: 3 });
    expect(jobsOf(3, 'a\nb')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Edit one picture/),
    });
    expect(jobsOf(1, '  ')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Write a prompt/),
    });
  });

  it('says why Run waits, the first thing to do first', () => {
    const base = {
      jobs: jobsOf(1, 'a\nb'),
      model: model('flux-schnell') as ImageModelEntry | null,
      picture: 'ready' as const,
      mask: 'current' as const,
      check: { status: 'done' as const, check: ready },
      sending: false,
    };
    expect(runBlockers(base)).toEqual([]);
    expect(runBlockers({ ...base, jobs: jobsOf(1, '') })).toEqual([
      'Write a prompt: what should change in the picture.',
    ]);
    expect(runBlockers({ ...base, model: null })[0]).toMatch(/^No model here edits pictures/);
    expect(runBlockers({ ...base, mask: 'preparing' })).toEqual(['Preparing the mask…']);
    expect(runBlockers({ ...base, check: { status: 'checking' } })).toEqual(['Checking the edit…']);
    const refused = {
      ...ready,
      bad: 2,
      errors: [
        { label: 'the mask', message: 'x' },
        { label: 'image 4', imageId: 4, message: 'y' },
      ],
    };
    expect(runBlockers({ ...base, check: { status: 'done', check: refused } })).toEqual([
      'Fix 2 problems first (listed above).',
    ]);
    expect(runBlockers({ ...base, sending: true })).toEqual(['Queuing the edit…']);
  });
});
