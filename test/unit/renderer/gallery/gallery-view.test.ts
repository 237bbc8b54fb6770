import { describe, expect, it } from 'vitest';
import {
  activeFilters,
  DEFAULT_VIEW,
  EXPIRED_CODE,
  queryKey,
  startOfDay,
  toImageQuery,
} from '../../../../renderer/src/screens/gallery/gallery-view.ts';
import { ImageQuery } from '../../../../shared/api/schemas/images.ts';

describe('the gallery view as the service query', () => {
  it('asks for written images, newest first, when nothing is set', () => {
    expect(toImageQuery(DEFAULT_VIEW)).toEqual({ order: 'newest', downloadStates: ['done'] });
  });

  it('composes every filter, and the service accepts the result', () => {
    const query = toImageQuery({
      ...DEFAULT_VIEW,
      text: '  red fox ',
      batchId: 7,
      model: 'flux-schnell',
      size: '512x512',
      from: '2026-11-01',
      to: '2026-11-03',
      favorite: true,
      order: 'oldest',
    });
    expect(query).toEqual({
      order: 'oldest',
      downloadStates: ['done'],
      text: 'red fox',
      batchId: 7,
      model: 'flux-schnell',
      size: '512x512',
      from: new Date(2026, 10, 1).getTime(),
      // the "to" day is included: up to the next local midnight
      to: new Date(2026, 10, 4).getTime(),
      favorite: true,
    });
    expect(ImageQuery.safeParse(query).success).toBe(true);
  });

  it('maps each state to download states, failure codes or the partial flag', () => {
    expect(toImageQuery({ ...DEFAULT_VIEW, show: 'failed' }).downloadStates).toEqual(['failed']);
    expect(toImageQuery({ ...DEFAULT_VIEW, show: 'expired' })).toMatchObject({
      downloadStates: ['failed'],
      failureCodes: [EXPIRED_CODE],
    });
    expect(toImageQuery({ ...DEFAULT_VIEW, show: 'partial' })).toMatchObject({
      downloadStates: ['done'],
      partial: true,
    });
    expect(toImageQuery({ ...DEFAULT_VIEW, show: 'all' }).downloadStates).toHaveLength(4);
  });

  it('shows edits only, generations only, or the edits of one image', () => {
    expect(toImageQuery({ ...DEFAULT_VIEW, origin: 'edits' })).toMatchObject({ edits: true });
    expect(toImageQuery({ ...DEFAULT_VIEW, origin: 'generated' })).toMatchObject({
      edits: false,
    });
    expect(toImageQuery(DEFAULT_VIEW)).not.toHaveProperty('edits');
    const ofOne = toImageQuery({ ...DEFAULT_VIEW, editedFrom: 42 });
    expect(ofOne).toMatchObject({ editedFrom: 42 });
    expect(ImageQuery.safeParse(ofOne).success).toBe(true);
    expect(activeFilters({ ...DEFAULT_VIEW, origin: 'edits', editedFrom: 42 })).toBe(2);
  });

  it('leaves out an empty search and a date that is no date', () => {
    const query = toImageQuery({ ...DEFAULT_VIEW, text: '   ', from: 'soon' });
    expect(query).not.toHaveProperty('text');
    expect(query).not.toHaveProperty('from');
    expect(startOfDay('2026-02-30')).toBe(new Date(2026, 2, 2).getTime());
  });

  it('gives equal views equal keys, whatever order their fields were set in', () => {
    const a = toImageQuery({ ...DEFAULT_VIEW, model: 'm', favorite: true });
    const b = toImageQuery({ ...DEFAULT_VIEW, favorite: true, model: 'm' });
    expect(queryKey(a)).toBe(queryKey(b));
    expect(queryKey(a)).not.toBe(queryKey(toImageQuery(DEFAULT_VIEW)));
    // grouping is no filter: the same list
    expect(queryKey(toImageQuery({ ...DEFAULT_VIEW, group: 'day' }))).toBe(
      queryKey(toImageQuery(DEFAULT_VIEW)),
    );
  });

  it('counts the filters that narrow the view', () => {
    expect(activeFilters(DEFAULT_VIEW)).toBe(0);
    expect(activeFilters({ ...DEFAULT_VIEW, from: '2026-01-01', to: '2026-01-02' })).toBe(1);
    expect(activeFilters({ ...DEFAULT_VIEW, favorite: true, show: 'failed' })).toBe(2);
  });
});
