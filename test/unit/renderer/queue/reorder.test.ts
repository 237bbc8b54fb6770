import { describe, expect, it } from 'vitest';
import { reorderPlan, type BatchMove } from '../../../../renderer/src/screens/queue/reorder.ts';

/** What the service does with front/back moves: the list they produce. */
function apply(order: number[], moves: BatchMove[]): number[] {
  let list = [...order];
  for (const { id, position } of moves) {
    list = list.filter((each) => each !== id);
    if (position === 'front') list.unshift(id);
    else list.push(id);
  }
  return list;
}

describe('reordering batches with front and back moves only', () => {
  const order = [1, 2, 3, 4, 5, 6];

  it('reaches every target position, in at most half the list of calls plus one', () => {
    for (const id of order) {
      for (let to = 0; to < order.length; to++) {
        const moves = reorderPlan(order, id, to);
        const expected = order.filter((each) => each !== id);
        expected.splice(to, 0, id);
        expect(apply(order, moves)).toEqual(expected);
        expect(moves.length).toBeLessThanOrEqual(Math.ceil(order.length / 2) + 1);
      }
    }
  });

  it('moves to the front or the back in one call', () => {
    expect(reorderPlan(order, 4, 0)).toEqual([{ id: 4, position: 'front' }]);
    expect(reorderPlan(order, 2, 5)).toEqual([{ id: 2, position: 'back' }]);
  });

  it('does nothing for no move or an unknown batch', () => {
    expect(reorderPlan(order, 3, 2)).toEqual([]);
    expect(reorderPlan(order, 9, 0)).toEqual([]);
    expect(reorderPlan(order, 3, 6)).toEqual([]);
  });
});
