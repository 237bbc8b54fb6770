import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { getMimeType } from 'hono/utils/mime';
import { requireReady, state } from './state.ts';

export const protocol = {
  registerSchemesAsPrivileged(
    schemes: Array<{ scheme: string; privileges?: Record<string, boolean> }>,
  ): void {
    if (state.ready) {
      throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
    }
    state.privilegedSchemes.push(...structuredClone(schemes));
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    requireReady('protocol.handle');
    if (state.protocolHandlers.has(scheme)) {
      throw new Error(`Failed to register protocol: ${scheme}`);
    }
    state.protocolHandlers.set(scheme, handler);
  },
  unhandle(scheme: string): void {
    state.protocolHandlers.delete(scheme);
  },
  isProtocolHandled(scheme: string): boolean {
    return state.protocolHandlers.has(scheme);
  },
};

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]>; cancel?: boolean }) => void,
) => void;

export class Session {
  permissionRequestHandler: ((...args: never[]) => void) | null = null;
  permissionCheckHandler: ((...args: never[]) => boolean) | null = null;
  headersReceived: HeadersListener | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener | null) => {
      this.headersReceived = listener;
    },
  };

  setPermissionRequestHandler(handler: ((...args: never[]) => void) | null): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: ((...args: never[]) => boolean) | null): void {
    this.permissionCheckHandler = handler;
  }

  /** The headers a response reaches the page with, after `onHeadersReceived`. */
  headersOf(url: string, responseHeaders: Record<string, string[]>): Record<string, string[]> {
    let result = responseHeaders;
    this.headersReceived?.({ url, responseHeaders }, (response) => {
      if (response.responseHeaders) result = response.responseHeaders;
    });
    return result;
  }
}

export const session = { defaultSession: new Session() };

export const net = {
  /** http(s) as fetch; `file:` the whole file, `Range` ignored (as Electron's file loader). */
  async fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol === 'file:') {
      const path = fileURLToPath(url);
      const type = getMimeType(path) ?? 'application/octet-stream';
      return new Response(await readFile(path), { status: 200, headers: { 'content-type': type } });
    }
    if (state.protocolHandlers.has(url.protocol.slice(0, -1))) return fetchThroughProtocol(request);
    return fetch(request);
  },
};

/** The handler `protocol.handle` registered for the request's scheme answers it. */
export async function fetchThroughProtocol(request: Request): Promise<Response> {
  const scheme = new URL(request.url).protocol.slice(0, -1);
  const handler = state.protocolHandlers.get(scheme);
  if (!handler) throw new Error(`net::ERR_UNKNOWN_URL_SCHEME: no handler for ${scheme}:`);
  return handler(request);
}
