import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

const found = (text: string, options = {}) =>
  store.jobs.searchPrompts(text, options).map((job) => job.prompt);

describe('prompt search', () => {
  beforeEach(() => {
    store.batches.create(
      { name: 'one' },
      ['A red fox in the snow', 'A blue whale', 'Café au lait, watercolour', 'NEAR the "fox"'].map(
        (prompt) => ({ prompt, model: 'm' }),
      ),
      1,
    );
    store.batches.create({ name: 'two' }, [{ prompt: 'Red fox at dusk', model: 'm' }], 2);
  });

  it('finds every word, the last as a prefix, newest first', () => {
    expect(found('red fox')).toEqual(['Red fox at dusk', 'A red fox in the snow']);
    expect(found('wat')).toEqual(['Café au lait, watercolour']);
    expect(found('cafe')).toEqual(['Café au lait, watercolour']);
    expect(found('whale red')).toEqual([]);
  });

  it('treats FTS syntax as text and pages with beforeId', () => {
    expect(found('NEAR "fox')).toEqual(['NEAR the "fox"']);
    const [newest] = store.jobs.searchPrompts('fox', { limit: 1 });
    expect(found('fox', { beforeId: newest!.id })).toEqual([
      'NEAR the "fox"',
      'A red fox in the snow',
    ]);
    expect(found('fox', { batchId: newest!.batchId })).toEqual(['Red fox at dusk']);
  });

  it('forgets the prompts of a deleted batch', () => {
    const [two] = store.batches.list();
    store.batches.delete(two!.id);
    expect(found('dusk')).toEqual([]);
    expect(
      store.db.prepare(`INSERT INTO jobs_fts (jobs_fts) VALUES ('integrity-check')`).run(),
    ).toBeTruthy();
  });
});
