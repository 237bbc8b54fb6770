import type { BrowserWindow as ElectronWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserWindow,
  FakeFrame,
  FakeWebContents,
  invokeHandler,
  ipcEvent,
  ipcMain,
  resetElectronMock,
} from '../../support/electron-mock.ts';
import {
  channelOf,
  contractMethods,
  EVENTS_CHANNEL,
  SUBSCRIBE_CHANNEL,
  UNSUBSCRIBE_CHANNEL,
} from '../../../shared/api/channels.ts';
import type { EventBatch } from '../../../shared/api/events.ts';
import type { EventListener, Handlers } from '../../../shared/api/types.ts';
import type { ServedApp } from '../../../main/core/app/host.ts';
import { setupIpc, type IpcOptions } from '../../../main/electron/setup-ipc.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

/** A service whose every handler answers null and records its input. */
function fakeApp() {
  const api: Record<string, Record<string, ReturnType<typeof vi.fn>>> = {};
  for (const { area, method } of contractMethods()) {
    api[area] ??= {};
    api[area][method] = vi.fn(async () => null);
  }
  const listeners = new Map<EventListener, string | null>();
  const stops: Array<ReturnType<typeof vi.fn>> = [];
  const served: ServedApp = {
    api: api as unknown as Handlers,
    events: {
      subscribe: vi.fn((cursor: string | null, listener: EventListener) => {
        listeners.set(listener, cursor);
        const stop = vi.fn(() => listeners.delete(listener));
        stops.push(stop);
        return stop;
      }),
    },
    libraryDir: () => '/library',
    toApiError: (error) => ({ code: 'internal', message: String((error as Error).message) }),
    close: async () => {},
  };
  const deliver = (batch: EventBatch) => [...listeners.keys()].forEach((l) => l(batch));
  return { served, api, listeners, stops, deliver };
}

function setup(options: Partial<IpcOptions> = {}) {
  const service = fakeApp();
  const win = new BrowserWindow();
  const dispose = setupIpc({
    app: service.served,
    window: () => win as unknown as ElectronWindow,
    ...options,
  });
  return { ...service, win, contents: win.webContents, dispose };
}

const GET = channelOf('batches', 'get');
const batch: EventBatch = { cursor: 'c1', events: [{ type: 'queue.resumed', payload: {} }] };

describe('setupIpc: methods', () => {
  beforeEach(() => resetElectronMock());

  it('registers one handler per contract method, on its own channel', () => {
    setup();
    const expected = contractMethods().map(({ area, method }) => channelOf(area, method));
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...expected].sort());
  });

  it('dispatches a call from our renderer with its parsed input', async () => {
    const { api, contents } = setup();
    api['batches']!['get']!.mockResolvedValueOnce({ id: 7 });
    const result = await invokeHandler(GET, ipcEvent(contents), { id: 7 });
    expect(result).toEqual({ ok: true, value: { id: 7 } });
    expect(api['batches']!['get']).toHaveBeenCalledWith({ id: 7 });
  });

  it('applies the schema’s defaults before the handler sees the input', async () => {
    const { api, contents } = setup();
    await invokeHandler(channelOf('batches', 'list'), ipcEvent(contents), {});
    expect(api['batches']!['list']).toHaveBeenCalledWith({ limit: 100 });
  });

  it.each([
    ['batches.get', { id: 'seven' }],
    ['batches.get', { id: -1 }],
    ['batches.get', null],
    ['jobs.byIds', { ids: Array.from({ length: 501 }, (_, i) => i + 1) }],
    ['queue.resume', { unexpected: true }],
    ['batches.rename', { id: 1, name: '   ' }],
  ])('refuses bad input to %s as invalid-argument, without calling it', async (name, input) => {
    const { api, contents } = setup();
    const [area, method] = name.split('.') as [string, string];
    const result = (await invokeHandler(channelOf(area, method), ipcEvent(contents), input)) as {
      ok: boolean;
      error: { code: string };
    };
    expect(result.ok).toBe(false);
    expect(result.error.code).toBe('invalid-argument');
    expect(api[area]![method]).not.toHaveBeenCalled();
  });

  it('returns what a handler threw as an error Result', async () => {
    const { api, contents } = setup();
    api['batches']!['get']!.mockRejectedValueOnce(new Error('disk on fire'));
    expect(await invokeHandler(GET, ipcEvent(contents), { id: 1 })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'disk on fire' },
    });
  });

  it('removes every handler when disposed', () => {
    const { dispose } = setup();
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('setupIpc: sender checks', () => {
  beforeEach(() => resetElectronMock());

  const refusals: Array<[string, (s: ReturnType<typeof setup>) => unknown]> = [
    ['a frame that is gone (null senderFrame)', (s) => ipcEvent(s.contents, null)],
    [
      'a sub-frame of our page',
      (s) => ipcEvent(s.contents, new FakeFrame('atelier://app/index.html', s.contents.mainFrame)),
    ],
    [
      'a frame that is not the main frame of its contents',
      (s) => ipcEvent(s.contents, new FakeFrame('atelier://app/index.html')),
    ],
    [
      'our window navigated to a foreign page',
      (s) => {
        s.contents.mainFrame.url = 'https://evil.example/';
        return ipcEvent(s.contents);
      },
    ],
    [
      'the dev server when none is configured',
      (s) => {
        s.contents.mainFrame.url = 'http://localhost:5173/';
        return ipcEvent(s.contents);
      },
    ],
    ['a web contents with no window', () => ipcEvent(new FakeWebContents())],
    ['another window', () => ipcEvent(new BrowserWindow().webContents)],
  ];

  it.each(refusals)('refuses %s as forbidden', async (_name, eventOf) => {
    const s = setup();
    const result = (await invokeHandler(GET, eventOf(s), { id: 1 })) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(result.error.message).toMatch(/^batches\.get was refused: /);
    expect(s.api['batches']!['get']).not.toHaveBeenCalled();
  });

  it('refuses everything before the window exists', async () => {
    const service = fakeApp();
    setupIpc({ app: service.served, window: () => null });
    const contents = new BrowserWindow().webContents;
    expect(await invokeHandler(GET, ipcEvent(contents), { id: 1 })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('accepts the dev server when it is configured', async () => {
    const s = setup({ devUrl: 'http://localhost:5173/' });
    s.contents.mainFrame.url = 'http://localhost:5173/';
    expect(await invokeHandler(GET, ipcEvent(s.contents), { id: 1 })).toMatchObject({ ok: true });
  });
});

describe('setupIpc: events', () => {
  beforeEach(() => resetElectronMock());

  it('forwards each delivery to the subscribed renderer, from its cursor', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), 'cursor-1');
    expect(s.served.events.subscribe).toHaveBeenCalledWith('cursor-1', expect.any(Function));
    s.deliver(batch);
    expect(s.contents.send).toHaveBeenCalledWith(EVENTS_CHANNEL, batch);
  });

  it('subscribes from now when the cursor is missing or not a cursor', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), { evil: true });
    expect(s.served.events.subscribe).toHaveBeenLastCalledWith(null, expect.any(Function));
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents));
    expect(s.served.events.subscribe).toHaveBeenLastCalledWith(null, expect.any(Function));
  });

  it('keeps one subscription per page: subscribing again replaces it', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), null);
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), 'c2');
    expect(s.stops[0]).toHaveBeenCalled();
    expect(s.listeners.size).toBe(1);
    s.deliver(batch);
    expect(s.contents.send).toHaveBeenCalledTimes(1);
  });

  it('stops on unsubscribe', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), null);
    ipcMain.emit(UNSUBSCRIBE_CHANNEL, ipcEvent(s.contents));
    expect(s.listeners.size).toBe(0);
  });

  it('stops when the page’s web contents is destroyed', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), null);
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), null);
    expect(s.contents.listenerCount('destroyed')).toBe(1); // not one more per subscription
    s.contents.destroy();
    expect(s.listeners.size).toBe(0);
  });

  it('refuses a subscription from a sender that is not our renderer', () => {
    const s = setup();
    const frame = new FakeFrame('atelier://app/index.html', s.contents.mainFrame);
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents, frame), null);
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents, null), null);
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(new FakeWebContents()), null);
    expect(s.served.events.subscribe).not.toHaveBeenCalled();
  });

  it('ends every subscription when disposed', () => {
    const s = setup();
    ipcMain.emit(SUBSCRIBE_CHANNEL, ipcEvent(s.contents), null);
    s.dispose();
    expect(s.listeners.size).toBe(0);
    expect(ipcMain.listenerCount(SUBSCRIBE_CHANNEL)).toBe(0);
  });
});
