import { segmentRect, unionRect, type Point } from './brush.ts';
import { exportInWorker } from './mask-export.ts';
import { MaskHistory, type Rect, type StepTarget } from './mask-history.ts';
import { alphaOf, hardMask, paintFromMaskFile, paintOf, PAINT_RGB } from './mask-pixels.ts';

/** The mask as it is sent: a PNG at the picture's size, and how much of it may change. */
export interface MaskExport {
  png: Blob;
  /** Pixels the picture may change (painted). */
  painted: number;
  total: number;
  /** The layer's version it was made from. */
  version: number;
}

const PAINT = `rgb(${PAINT_RGB.join(' ')})`;

/**
 * The painted mask, at the picture's natural size (never the screen's): strokes are drawn in
 * the picture's own pixels on a canvas the stage shows scaled, so what is sent is exactly what
 * was painted, however the view is zoomed. A second canvas holds the layer as it was before the
 * stroke in progress, so a stroke's undo keeps only the rectangle it touched.
 */
export class MaskLayer {
  readonly width: number;
  readonly height: number;
  /** The painted layer at the picture's size: what is exported; the stage shows it through a view. */
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly before: HTMLCanvasElement;
  private readonly beforeCtx: CanvasRenderingContext2D;
  private readonly history = new MaskHistory();
  private stroke: { last: Point; size: number; erase: boolean; rect: Rect | null } | null = null;
  private readonly listeners = new Set<() => void>();
  private version = 0;
  /** False only while the layer is surely empty (an export then reads nothing). */
  private maybePainted = false;
  /**
   * The screen's canvas, its transform mapping the picture's pixels onto it: a stroke is drawn
   * there too, so a frame repaints a canvas the size of the view, never the picture's 64 MB.
   */
  private view: CanvasRenderingContext2D | null = null;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.canvas = canvasOf(width, height);
    this.ctx = context(this.canvas);
    this.before = canvasOf(width, height);
    this.beforeCtx = context(this.before);
  }

  /** Told after every change (a stroke ended, an undo, a load…), not during a stroke. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes at every change: what exports and checks are keyed by. */
  getVersion = (): number => this.version;

  get canUndo(): boolean {
    return this.history.canUndo;
  }

  get canRedo(): boolean {
    return this.history.canRedo;
  }

  /**
   * Where the layer is shown (null: nowhere). Its transform must map the picture's pixels onto
   * it; the stage redraws it from `canvas` whenever the view moves or the layer changes.
   */
  setView(view: CanvasRenderingContext2D | null): void {
    this.view = view;
  }

  /** A stroke starts with a dab at `point` (the picture's pixels); `erase` takes paint away. */
  begin(point: Point, size: number, erase: boolean): void {
    this.end();
    for (const ctx of this.drawn()) {
      brushOn(ctx, size, erase);
      ctx.beginPath();
      ctx.arc(point.x, point.y, size / 2, 0, Math.PI * 2);
      ctx.fill();
    }
    if (!erase) this.maybePainted = true;
    this.stroke = {
      last: point,
      size,
      erase,
      rect: segmentRect(point, point, size, this.width, this.height),
    };
  }

  /** The stroke goes on to `point`. */
  extend(point: Point): void {
    const stroke = this.stroke;
    if (!stroke) return;
    for (const ctx of this.drawn()) {
      // (the view may have been redrawn since, its settings reset)
      if (ctx === this.view) brushOn(ctx, stroke.size, stroke.erase);
      ctx.beginPath();
      ctx.moveTo(stroke.last.x, stroke.last.y);
      ctx.lineTo(point.x, point.y);
      ctx.stroke();
    }
    stroke.rect = unionRect(
      stroke.rect,
      segmentRect(stroke.last, point, stroke.size, this.width, this.height),
    );
    stroke.last = point;
  }

  /** Ends the stroke: its rectangle as it was goes to the undo history. */
  end(): void {
    const stroke = this.stroke;
    if (!stroke) return;
    this.stroke = null;
    this.ctx.globalCompositeOperation = 'source-over';
    if (this.view) this.view.globalCompositeOperation = 'source-over';
    if (!stroke.rect) return;
    const start = performance.now();
    this.history.record({ kind: 'pixels', rect: stroke.rect, alpha: this.readBefore(stroke.rect) });
    this.copyToBefore(stroke.rect);
    measured('atelier:mask-stroke-end', start);
    this.changed();
  }

  /** Paint becomes bare and bare becomes paint: edit everything but what was painted. */
  invert(): void {
    this.end();
    this.invertPixels();
    this.history.record({ kind: 'invert' });
    this.maybePainted = true;
    this.changed();
  }

  /** Takes every stroke away (undoable). */
  clear(): void {
    this.end();
    if (!this.maybePainted) return;
    const all = this.whole();
    this.history.record({ kind: 'pixels', rect: all, alpha: this.readBefore(all) });
    this.ctx.clearRect(0, 0, this.width, this.height);
    this.beforeCtx.clearRect(0, 0, this.width, this.height);
    this.maybePainted = false;
    this.changed();
  }

  /**
   * A mask file, drawn at the picture's size (stretched if its shape differs), replaces the
   * paint (undoable): painted where it is transparent, or where it is light when it has no
   * transparency at all.
   */
  load(source: CanvasImageSource & { width: number; height: number }) {
    this.end();
    const scratch = canvasOf(this.width, this.height);
    const scratchCtx = context(scratch, true);
    scratchCtx.drawImage(source, 0, 0, this.width, this.height);
    const read = paintFromMaskFile(scratchCtx.getImageData(0, 0, this.width, this.height).data);
    release(scratch);
    const all = this.whole();
    this.history.record({ kind: 'pixels', rect: all, alpha: this.readBefore(all) });
    this.writeAlpha(all, read.alpha);
    this.maybePainted = read.painted > 0;
    this.changed();
    return { convention: read.convention, painted: read.painted, total: this.width * this.height };
  }

  undo(): void {
    this.end();
    if (this.history.undo(this.target)) this.afterStep();
  }

  redo(): void {
    this.end();
    if (this.history.redo(this.target)) this.afterStep();
  }

  /**
   * The mask as the gateway wants it: a PNG at the picture's size, black, transparent where
   * painted and opaque elsewhere, hard-edged (the brush's soft rim cut in half).
   */
  async export(): Promise<MaskExport> {
    this.end();
    const start = performance.now();
    const { width, height } = this;
    const version = this.version;
    const made =
      (await exportInWorker(this.maybePainted ? this.canvas : null, width, height)) ??
      (await this.exportHere());
    measured('atelier:mask-export', start);
    return { ...made, total: width * height, version };
  }

  /** The export on the window's thread, where no worker can do it. */
  private async exportHere(): Promise<{ png: Blob; painted: number }> {
    const { width, height } = this;
    const out = new ImageData(width, height);
    let painted = 0;
    if (this.maybePainted) {
      painted = hardMask(this.ctx.getImageData(0, 0, width, height).data, out.data);
    } else {
      for (let i = 3; i < out.data.length; i += 4) out.data[i] = 255; // all kept
    }
    const encoder = canvasOf(width, height);
    context(encoder).putImageData(out, 0, 0);
    const png = await new Promise<Blob | null>((resolve) => encoder.toBlob(resolve, 'image/png'));
    release(encoder);
    if (!png) throw new Error('the browser could not encode the mask as a PNG');
    return { png, painted };
  }

  /** Lets the canvases' memory go (the layer is not used again). */
  dispose(): void {
    this.view = null;
    this.listeners.clear();
    this.history.clear();
    release(this.canvas);
    release(this.before);
  }

  private readonly target: StepTarget = {
    read: (rect) => alphaOf(this.ctx.getImageData(rect.x, rect.y, rect.width, rect.height).data),
    write: (rect, alpha) => this.writeAlpha(rect, alpha),
    invert: () => this.invertPixels(),
  };

  /** The canvases a stroke is drawn on: the layer's own, and the view's when it is shown. */
  private drawn(): CanvasRenderingContext2D[] {
    return this.view ? [this.ctx, this.view] : [this.ctx];
  }

  private afterStep(): void {
    this.maybePainted = true; // (what came back may be paint)
    this.changed();
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  private whole(): Rect {
    return { x: 0, y: 0, width: this.width, height: this.height };
  }

  private readBefore(rect: Rect): Uint8Array {
    return alphaOf(this.beforeCtx.getImageData(rect.x, rect.y, rect.width, rect.height).data);
  }

  /** The rectangle of the shown layer copied into the one kept from before strokes. */
  private copyToBefore(rect: Rect): void {
    const { x, y, width, height } = rect;
    this.beforeCtx.clearRect(x, y, width, height);
    this.beforeCtx.drawImage(this.canvas, x, y, width, height, x, y, width, height);
  }

  private writeAlpha(rect: Rect, alpha: Uint8Array): void {
    const pixels = new ImageData(paintOf(alpha), rect.width, rect.height);
    this.ctx.putImageData(pixels, rect.x, rect.y);
    this.beforeCtx.putImageData(pixels, rect.x, rect.y);
  }

  /** Inverts with the canvas's own compositing: paint everywhere, less what was painted. */
  private invertPixels(): void {
    const { width, height } = this;
    const b = this.beforeCtx;
    b.clearRect(0, 0, width, height);
    b.fillStyle = PAINT;
    b.fillRect(0, 0, width, height);
    b.globalCompositeOperation = 'destination-out';
    b.drawImage(this.canvas, 0, 0);
    b.globalCompositeOperation = 'source-over';
    this.ctx.globalCompositeOperation = 'copy';
    this.ctx.drawImage(this.before, 0, 0);
    this.ctx.globalCompositeOperation = 'source-over';
  }
}

/** The brush's settings on a context: paint, or take paint away. */
function brushOn(ctx: CanvasRenderingContext2D, size: number, erase: boolean): void {
  ctx.globalCompositeOperation = erase ? 'destination-out' : 'source-over';
  ctx.fillStyle = PAINT;
  ctx.strokeStyle = PAINT;
  ctx.lineWidth = size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
}

/** A user-timing entry from `start` to now: the editor bench reads them (test/bench/editor-bench.ts). */
function measured(name: string, start: number): void {
  performance.measure(name, { start, end: performance.now() });
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function context(canvas: HTMLCanvasElement, readOften = false): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: readOften });
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  return ctx;
}

/** A canvas sized to nothing gives its pixels back at once, not when it is collected. */
function release(canvas: HTMLCanvasElement): void {
  canvas.width = 0;
  canvas.height = 0;
}
