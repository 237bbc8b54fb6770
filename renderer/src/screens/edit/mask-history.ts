/**
 * Undo and redo of a mask, kept as small as the change: a stroke keeps the alpha of the
 * rectangle it touched (one byte a pixel), never a copy of the whole picture; an inversion
 * keeps nothing (it is its own undo). Pure, so it is tested without a canvas.
 */

/** A rectangle of the mask, in the picture's pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A step: the rectangle's alpha as it was on the other side of the step (before it, on the
 * undo stack; after it, on the redo stack), or an inversion of the whole mask.
 */
export type MaskStep = { kind: 'pixels'; rect: Rect; alpha: Uint8Array } | { kind: 'invert' };

/** What undoing or redoing does to the mask, told by the history to the layer that draws it. */
export interface StepTarget {
  /** The rectangle's alpha now (kept for the other direction). */
  read(rect: Rect): Uint8Array;
  /** Puts this alpha back into the rectangle. */
  write(rect: Rect, alpha: Uint8Array): void;
  invert(): void;
}

/** 192 MB of undo: a dozen whole-picture steps of a 4096×4096 mask, thousands of strokes. */
export const HISTORY_BYTES = 192 * 1024 * 1024;
/** Steps kept at most, whatever their size. */
export const HISTORY_STEPS = 200;

const bytesOf = (step: MaskStep) => (step.kind === 'pixels' ? step.alpha.byteLength : 0);

export class MaskHistory {
  private readonly undoable: MaskStep[] = [];
  private readonly redoable: MaskStep[] = [];
  private readonly budget: number;
  private readonly maxSteps: number;
  private used = 0;

  constructor(budget = HISTORY_BYTES, maxSteps = HISTORY_STEPS) {
    this.budget = budget;
    this.maxSteps = maxSteps;
  }

  get canUndo(): boolean {
    return this.undoable.length > 0;
  }

  get canRedo(): boolean {
    return this.redoable.length > 0;
  }

  /** Bytes held by both stacks. */
  get bytes(): number {
    return this.used;
  }

  /**
   * A step just done, with what was there before it; what could be redone is gone. The
   * oldest steps go first when the budget is passed (the newest always stays).
   */
  record(step: MaskStep): void {
    for (const dropped of this.redoable.splice(0)) this.used -= bytesOf(dropped);
    this.undoable.push(step);
    this.used += bytesOf(step);
    while (
      this.undoable.length > 1 &&
      (this.used > this.budget || this.undoable.length > this.maxSteps)
    ) {
      this.used -= bytesOf(this.undoable.shift()!);
    }
  }

  /** Undoes the last step on `target`; false when there is none. */
  undo(target: StepTarget): boolean {
    return this.move(this.undoable, this.redoable, target);
  }

  redo(target: StepTarget): boolean {
    return this.move(this.redoable, this.undoable, target);
  }

  clear(): void {
    this.undoable.length = 0;
    this.redoable.length = 0;
    this.used = 0;
  }

  private move(from: MaskStep[], to: MaskStep[], target: StepTarget): boolean {
    const step = from.pop();
    if (!step) return false;
    if (step.kind === 'invert') {
      target.invert();
      to.push(step);
      return true;
    }
    // what is there now is what the other direction puts back
    const now = target.read(step.rect);
    target.write(step.rect, step.alpha);
    this.used += now.byteLength - step.alpha.byteLength;
    to.push({ kind: 'pixels', rect: step.rect, alpha: now });
    return true;
  }
}
