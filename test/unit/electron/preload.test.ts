import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  contextBridge,
  exposed,
  ipcRenderer,
  resetElectronMock,
} from '../../support/electron-mock.ts';
import {
  channelOf,
  EVENTS_CHANNEL,
  SUBSCRIBE_CHANNEL,
  UNSUBSCRIBE_CHANNEL,
} from '../../../shared/api/channels.ts';
import { contract } from '../../../shared/api/contract.ts';
import type { RawApi } from '../../../shared/api/types.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

// The preload exposes its API as it loads: what it exposed is read before any reset.
const { buildPreloadApi } = await import('../../../main/electron/preload.ts');
const exposeCalls = [...contextBridge.exposeInMainWorld.mock.calls];
const atelier = exposed['atelier'] as Record<string, Record<string, unknown>>;

/** Area → sorted method names, the shape both sides must have. */
function shapeOf(api: object): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(api).map(([area, methods]) => [area, Object.keys(methods as object).sort()]),
  );
}

/** Every key at any depth of a plain object tree. */
function allKeys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...allKeys(child)]);
}

describe('preload', () => {
  it('exposes one object, as window.atelier', () => {
    expect(exposeCalls).toHaveLength(1);
    expect(exposeCalls[0]![0]).toBe('atelier');
  });

  it('exposes exactly the contract’s areas and methods, plus events.subscribe', () => {
    expect(shapeOf(atelier)).toStrictEqual({
      ...shapeOf(contract),
      events: ['subscribe'],
    });
    for (const methods of Object.values(atelier)) {
      for (const fn of Object.values(methods)) expect(typeof fn).toBe('function');
    }
  });

  it('exposes no generic channel access', () => {
    const keys = allKeys(atelier);
    for (const name of ['invoke', 'send', 'on', 'sendSync', 'ipcRenderer', 'postMessage']) {
      expect(keys).not.toContain(name);
    }
  });

  it('is typed as the contract’s RawApi', () => {
    expectTypeOf(buildPreloadApi).returns.toEqualTypeOf<RawApi>();
  });
});

describe('buildPreloadApi', () => {
  beforeEach(() => resetElectronMock());

  it('sends each method to its own channel and returns main’s Result', async () => {
    const api = buildPreloadApi(ipcRenderer as never);
    ipcRenderer.invoke.mockResolvedValueOnce({ ok: true, value: { id: 3 } });
    expect(await api.batches.get({ id: 3 })).toEqual({ ok: true, value: { id: 3 } });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(channelOf('batches', 'get'), { id: 3 });
  });

  it('sends {} for a method called without input', async () => {
    const api = buildPreloadApi(ipcRenderer as never);
    await api.queue.resume();
    expect(ipcRenderer.invoke).toHaveBeenCalledWith(channelOf('queue', 'resume'), {});
  });

  it('turns a failed invoke into an error Result instead of throwing', async () => {
    const api = buildPreloadApi(ipcRenderer as never);
    ipcRenderer.invoke.mockRejectedValueOnce(new Error('An object could not be cloned.'));
    expect(await api.images.reveal({ id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'images.reveal: An object could not be cloned.' },
    });
  });

  it('subscribes with a cursor, delivers batches and unsubscribes', () => {
    const api = buildPreloadApi(ipcRenderer as never);
    const listener = vi.fn();
    const stop = api.events.subscribe('c1', listener);
    expect(ipcRenderer.send).toHaveBeenCalledWith(SUBSCRIBE_CHANNEL, 'c1');
    const batch = { cursor: 'c2', events: [] };
    ipcRenderer.emit(EVENTS_CHANNEL, {}, batch);
    expect(listener).toHaveBeenCalledWith(batch);
    stop();
    expect(ipcRenderer.send).toHaveBeenLastCalledWith(UNSUBSCRIBE_CHANNEL);
    expect(ipcRenderer.listenerCount(EVENTS_CHANNEL)).toBe(0);
    stop(); // twice is harmless
    expect(ipcRenderer.send).toHaveBeenCalledTimes(2);
  });

  it('keeps one subscription: a new one ends the last, whose stop then does nothing', () => {
    const api = buildPreloadApi(ipcRenderer as never);
    const first = vi.fn();
    const stopFirst = api.events.subscribe(null, first);
    api.events.subscribe('c9', vi.fn());
    expect(ipcRenderer.listenerCount(EVENTS_CHANNEL)).toBe(1);
    stopFirst();
    expect(ipcRenderer.listenerCount(EVENTS_CHANNEL)).toBe(1);
    ipcRenderer.emit(EVENTS_CHANNEL, {}, { cursor: 'x', events: [] });
    expect(first).not.toHaveBeenCalled();
  });
});
