import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../main/core/store/fts-query.ts';

describe('toFtsQuery', () => {
  it.each([
    ['red fox', '"red" "fox"*'],
    ['  fox  ', '"fox"*'],
    ['"quoted" NEAR(a b) col:x', '"quoted" "NEAR(a" "b)" "col:x"*'],
    ['renard rouge 狐狸', '"renard" "rouge" "狐狸"*'],
    ['', null],
    ['" - * ( )', null],
  ])('%j → %j', (text, query) => {
    expect(toFtsQuery(text)).toBe(query);
  });
});
