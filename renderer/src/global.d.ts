import type { RawApi } from '../../shared/api/types.ts';

declare global {
  interface Window {
    /** The desktop preload's API (contextBridge); absent in a browser tab. */
    atelier?: RawApi;
  }
}

export {};
