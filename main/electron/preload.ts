import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  channelOf,
  EVENTS_CHANNEL,
  SUBSCRIBE_CHANNEL,
  UNSUBSCRIBE_CHANNEL,
} from '../../shared/api/channels.ts';
import type { EventBatch } from '../../shared/api/events.ts';
import type { Result } from '../../shared/api/errors.ts';
import { buildRawApi, type SendCall } from '../../shared/api/raw-client.ts';
import type { EventSource, RawApi } from '../../shared/api/types.ts';

type Ipc = Pick<typeof ipcRenderer, 'invoke' | 'send' | 'on' | 'removeListener'>;

/**
 * The renderer's whole view of main: one function per contract method, each sending to that
 * method's own channel, plus `events.subscribe`. No generic `invoke(channel)` is exposed, so
 * a compromised page can call the contract's methods and nothing else.
 */
export function buildPreloadApi(ipc: Ipc): RawApi {
  const send: SendCall = async (area, method, input) => {
    try {
      return (await ipc.invoke(channelOf(area, method), input)) as Result<unknown>;
    } catch (error) {
      // no handler yet, or an input IPC cannot clone: still an answer, never a throw
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'internal', message: `${area}.${method}: ${message}` } };
    }
  };
  let active: (() => void) | null = null;
  const events: EventSource = {
    // one subscription per page (main keeps one per web contents): a new one ends the last
    subscribe(cursor, listener) {
      active?.();
      const onBatch = (_event: IpcRendererEvent, batch: EventBatch) => listener(batch);
      ipc.on(EVENTS_CHANNEL, onBatch);
      ipc.send(SUBSCRIBE_CHANNEL, cursor);
      const stop = () => {
        if (active !== stop) return;
        active = null;
        ipc.removeListener(EVENTS_CHANNEL, onBatch);
        ipc.send(UNSUBSCRIBE_CHANNEL);
      };
      active = stop;
      return stop;
    },
  };
  return buildRawApi(send, events) satisfies RawApi;
}

contextBridge.exposeInMainWorld('atelier', buildPreloadApi(ipcRenderer));
