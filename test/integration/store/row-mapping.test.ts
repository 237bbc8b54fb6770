import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../main/core/store/store.ts';
import { tempStore } from './temp-store.ts';

let store: Store;
let cleanup: () => void;
beforeEach(() => ({ store, cleanup } = tempStore()));
afterEach(() => cleanup());

/** Columns the store keeps to itself (uniqueness keys), never handed out. */
const PRIVATE_COLUMNS = new Set(['dir_key', 'path_key']);

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The fields a row of `table` must become: every column but the private ones, camelCased. */
function fieldsOf(table: string): string[] {
  const columns = store.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  return columns
    .map(({ name }) => name)
    .filter((name) => !PRIVATE_COLUMNS.has(name))
    .map(camel)
    .sort();
}

// The row mappers name each field (one object shape for V8): a column added by a migration
// must be added there too, or it would silently never reach the app.
describe('rows handed out by the store', () => {
  it('carry every column of their table, camelCased, decoded, and nothing else', () => {
    const batch = store.batches.create(
      { name: 'Mapping', settings: { quality: 'high' } },
      [{ prompt: 'a fox', model: 'm', seed: 7, params: { quality: 'low' } }],
      1,
    );
    const [job] = store.jobs.claimRunnable(1, 2);
    const attemptId = store.attempts.start(job!.id, 2);
    store.attempts.finish(attemptId, { now: 3, outcome: 'succeeded', httpStatus: 200 });
    const [image] = store.images.addResults(job!.id, [{ idx: 1, b64: Buffer.from('png') }], 3);

    expect(Object.keys(batch).sort()).toEqual(fieldsOf('batches'));
    expect(Object.keys(job!).sort()).toEqual(fieldsOf('jobs'));
    expect(Object.keys(store.attempts.listForJob(job!.id)[0]!).sort()).toEqual(
      fieldsOf('attempts'),
    );
    expect(Object.keys(image!).sort()).toEqual(fieldsOf('images'));

    expect(batch).toMatchObject({ settings: { quality: 'high' }, paused: false });
    expect(job).toMatchObject({ params: { quality: 'low' }, paused: false, seed: 7 });
    expect(image).toMatchObject({ hasPayload: true, favorite: false, downloadState: 'pending' });
  });
});
