import type { ServerResponse } from 'node:http';
import type { ResponseTarget } from '../http.ts';

const pause = (ms: number) =>
  new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/** Waits until the socket has taken what was written (or closed), leaving no listener behind. */
function flushed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('close', done);
      resolve();
    };
    res.once('close', done);
    res.write('', done);
  });
}

function ended(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    res.once('close', () => resolve(res.writableFinished));
    res.end();
  });
}

/**
 * Streams server-sent event frames one at a time, `paceMs` apart (a model writing its answer),
 * applying the transport faults: `reset` drops
 * the connection half-way, `slow` spreads the frames over slowBodyMs, `stream-error` sends
 * `errorFrame` half-way and ends there. Resolves true when every frame reached the socket,
 * false when the stream was cut, broke off or the client went away.
 */
export async function writeEventStream(
  target: ResponseTarget,
  frames: readonly string[],
  errorFrame: string,
  paceMs = 0,
): Promise<boolean> {
  const { res, fault } = target;
  if (res.destroyed) return false;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
  });
  const broken = fault === 'reset' || fault === 'stream-error';
  const count = broken ? Math.floor(frames.length / 2) : frames.length;
  const pauseMs = fault === 'slow' ? target.slowBodyMs / frames.length : paceMs;
  for (const frame of frames.slice(0, count)) {
    if (res.destroyed) return false;
    if (!res.write(frame)) await flushed(res);
    // Even without a delay, yield so each frame leaves as its own chunk, as a real stream does.
    await pause(pauseMs);
  }
  if (fault === 'reset') {
    await flushed(res);
    res.socket?.destroy();
    return false;
  }
  if (res.destroyed) return false;
  if (fault === 'stream-error') {
    res.write(errorFrame);
    await ended(res);
    return false;
  }
  return ended(res);
}
