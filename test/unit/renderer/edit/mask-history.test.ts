import { describe, expect, it } from 'vitest';
import {
  MaskHistory,
  type Rect,
  type StepTarget,
} from '../../../../renderer/src/screens/edit/mask-history.ts';

/** A mask as plain alpha, `width` pixels wide, that steps are undone and redone on. */
function plainMask(width: number, height: number) {
  const alpha = new Uint8Array(width * height);
  const target: StepTarget = {
    read: (rect) => {
      const out = new Uint8Array(rect.width * rect.height);
      for (let y = 0; y < rect.height; y++) {
        const from = (rect.y + y) * width + rect.x;
        out.set(alpha.subarray(from, from + rect.width), y * rect.width);
      }
      return out;
    },
    write: (rect, values) => {
      for (let y = 0; y < rect.height; y++) {
        alpha.set(
          values.subarray(y * rect.width, (y + 1) * rect.width),
          (rect.y + y) * width + rect.x,
        );
      }
    },
    invert: () => {
      for (let i = 0; i < alpha.length; i++) alpha[i] = 255 - alpha[i]!;
    },
  };
  /** Paints a rectangle, recording what it covered first (as the layer does). */
  const paint = (history: MaskHistory, rect: Rect, value = 255) => {
    const before = target.read(rect);
    target.write(rect, new Uint8Array(rect.width * rect.height).fill(value));
    history.record({ kind: 'pixels', rect, alpha: before });
  };
  return { alpha, target, paint };
}

describe('MaskHistory', () => {
  it('undoes and redoes strokes and inversions in order', () => {
    const mask = plainMask(4, 4);
    const history = new MaskHistory();
    mask.paint(history, { x: 0, y: 0, width: 2, height: 2 });
    mask.paint(history, { x: 1, y: 1, width: 2, height: 2 });
    const afterStrokes = [...mask.alpha];
    mask.target.invert();
    history.record({ kind: 'invert' });
    expect(mask.alpha[0]).toBe(0);

    expect(history.undo(mask.target)).toBe(true);
    expect([...mask.alpha]).toEqual(afterStrokes);
    expect(history.undo(mask.target)).toBe(true);
    // the second stroke's overlap with the first is back to the first's paint
    expect(mask.alpha[5]).toBe(255);
    expect(mask.alpha[10]).toBe(0);
    expect(history.undo(mask.target)).toBe(true);
    expect([...mask.alpha].every((a) => a === 0)).toBe(true);
    expect(history.undo(mask.target)).toBe(false);
    expect(history.canRedo).toBe(true);

    history.redo(mask.target);
    history.redo(mask.target);
    expect([...mask.alpha]).toEqual(afterStrokes);
    history.redo(mask.target);
    expect(mask.alpha[0]).toBe(0);
    expect(history.canRedo).toBe(false);
  });

  it('forgets what could be redone once something new is done', () => {
    const mask = plainMask(4, 4);
    const history = new MaskHistory();
    mask.paint(history, { x: 0, y: 0, width: 1, height: 1 });
    history.undo(mask.target);
    expect(history.canRedo).toBe(true);
    mask.paint(history, { x: 3, y: 3, width: 1, height: 1 });
    expect(history.canRedo).toBe(false);
    expect(history.bytes).toBe(1);
  });

  it('keeps within its budget by letting the oldest steps go, never the newest', () => {
    const mask = plainMask(10, 10);
    const history = new MaskHistory(250, 100);
    for (let i = 0; i < 5; i++) mask.paint(history, { x: 0, y: 0, width: 10, height: 10 }, i + 1);
    // 100 bytes a step: two fit in 250
    expect(history.bytes).toBe(200);
    expect(history.undo(mask.target)).toBe(true);
    expect(history.undo(mask.target)).toBe(true);
    expect(history.undo(mask.target)).toBe(false);
    expect(mask.alpha[0]).toBe(3);
    // one step larger than the budget is still kept: the last stroke can always be undone
    const small = new MaskHistory(10);
    mask.paint(small, { x: 0, y: 0, width: 10, height: 10 });
    expect(small.canUndo).toBe(true);
  });

  it('keeps at most its number of steps, an inversion costing no bytes', () => {
    const history = new MaskHistory(1_000, 3);
    for (let i = 0; i < 5; i++) history.record({ kind: 'invert' });
    const mask = plainMask(1, 1);
    let undone = 0;
    while (history.undo(mask.target)) undone++;
    expect(undone).toBe(3);
    expect(history.bytes).toBe(0);
  });
});
