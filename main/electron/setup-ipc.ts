import {
  BrowserWindow,
  ipcMain,
  type IpcMainEvent,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import {
  channelOf,
  contractMethods,
  EVENTS_CHANNEL,
  SUBSCRIBE_CHANNEL,
  UNSUBSCRIBE_CHANNEL,
} from '../../shared/api/channels.ts';
import type { Result } from '../../shared/api/errors.ts';
import type { EventBatch } from '../../shared/api/events.ts';
import { Cursor } from '../../shared/api/paging.ts';
import { dispatch } from '../core/app/dispatch.ts';
import type { ServedApp } from '../core/app/host.ts';
import type { Logger } from '../core/logger.ts';
import { isTrustedRendererUrl, type TrustOptions } from './trusted-url.ts';

export interface IpcOptions extends TrustOptions {
  app: ServedApp;
  /** Our window, once it exists: calls from any other web contents are refused. */
  window: () => BrowserWindow | null;
  /** Parse handlers' outputs too (development and tests). */
  checkOutput?: boolean;
  logger?: Logger;
}

type SenderEvent = Pick<IpcMainInvokeEvent | IpcMainEvent, 'sender' | 'senderFrame'>;

/**
 * Why an IPC message is refused, or null when it comes from the main frame of our window
 * showing our renderer. Electron's security checklist, item 17: a frame inside the page, a
 * page navigated elsewhere, or another web contents never reaches the service.
 */
export function senderRefusal(event: SenderEvent, options: IpcOptions): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'the frame that sent it is gone';
  const main = event.sender.mainFrame;
  if (
    frame.parent !== null ||
    frame.processId !== main.processId ||
    frame.routingId !== main.routingId
  ) {
    return 'it came from a frame inside the page, not the page itself';
  }
  const ours = options.window();
  if (!ours || ours.isDestroyed() || BrowserWindow.fromWebContents(event.sender) !== ours) {
    return "it came from a web contents that is not Atelier's window";
  }
  if (!isTrustedRendererUrl(frame.url, options)) return "the page is not Atelier's renderer";
  return null;
}

/**
 * Serves the whole contract over IPC: one `ipcMain.handle` per method, named by
 * `channelOf(area, method)`, each checking the sender, then `dispatch` (which parses the
 * input with the contract's schema). Events go to a subscribed renderer as one
 * `EVENTS_CHANNEL` message per delivery. Returns what undoes it all.
 */
export function setupIpc(options: IpcOptions): () => void {
  const { app, logger } = options;
  const channels: string[] = [];
  for (const { area, method } of contractMethods()) {
    const channel = channelOf(area, method);
    channels.push(channel);
    ipcMain.handle(channel, async (event, input: unknown): Promise<Result<unknown>> => {
      const refusal = senderRefusal(event, options);
      if (refusal) {
        logger?.warn(`refused ${area}.${method} over IPC: ${refusal}`);
        return forbidden(`${area}.${method} was refused: ${refusal}.`);
      }
      return dispatch(app.api, area, method, input, {
        toApiError: (error) => app.toApiError(error),
        checkOutput: options.checkOutput ?? false,
      });
    });
  }

  // One subscription per web contents: a page that reloads subscribes again and replaces it.
  const subscriptions = new Map<WebContents, () => void>();
  const watched = new WeakSet<WebContents>();
  const unsubscribe = (contents: WebContents) => {
    subscriptions.get(contents)?.();
    subscriptions.delete(contents);
  };
  const onSubscribe = (event: IpcMainEvent, cursor: unknown) => {
    const refusal = senderRefusal(event, options);
    if (refusal) {
      logger?.warn(`refused an event subscription over IPC: ${refusal}`);
      return;
    }
    const contents = event.sender;
    const parsed = Cursor.nullable().safeParse(cursor ?? null);
    if (!parsed.success) logger?.warn('an event subscription sent no valid cursor: from now on');
    unsubscribe(contents);
    const stop = app.events.subscribe(parsed.success ? parsed.data : null, (batch: EventBatch) => {
      if (!contents.isDestroyed()) contents.send(EVENTS_CHANNEL, batch);
    });
    subscriptions.set(contents, stop);
    if (!watched.has(contents)) {
      watched.add(contents);
      contents.once('destroyed', () => unsubscribe(contents));
    }
  };
  const onUnsubscribe = (event: IpcMainEvent) => unsubscribe(event.sender);
  ipcMain.on(SUBSCRIBE_CHANNEL, onSubscribe);
  ipcMain.on(UNSUBSCRIBE_CHANNEL, onUnsubscribe);

  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
    ipcMain.removeListener(SUBSCRIBE_CHANNEL, onSubscribe);
    ipcMain.removeListener(UNSUBSCRIBE_CHANNEL, onUnsubscribe);
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
}

function forbidden(message: string): Result<never> {
  return { ok: false, error: { code: 'forbidden', message } };
}
