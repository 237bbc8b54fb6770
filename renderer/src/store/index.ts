import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Api } from '../../../shared/api/types.ts';
import { createAppSlice } from './app-slice.ts';
import { createBatchesSlice } from './batches-slice.ts';
import { createComposeSlice } from './compose-slice.ts';
import { createEventsSlice } from './events-slice.ts';
import { createJobsSlice } from './jobs-slice.ts';
import { createQueueSlice } from './queue-slice.ts';
import { createSettingsSlice } from './settings-slice.ts';
import { createQueueScreenSlice } from './queue-screen-slice.ts';
import { createGallerySlice } from './gallery-slice.ts';
import type { AppState } from './state.ts';

export type AppStore = StoreApi<AppState>;

/** The whole UI state, in slices (zustand's slices pattern); tests pass a fake Api. */
export function createAppStore(api: Api): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createQueueSlice(api)(...a),
    ...createBatchesSlice(api)(...a),
    ...createJobsSlice(api)(...a),
    ...createAppSlice(api)(...a),
    ...createEventsSlice(api)(...a),
    ...createSettingsSlice(api)(...a),
    ...createComposeSlice(api)(...a),
    ...createQueueScreenSlice(api)(...a),
    ...createGallerySlice(api)(...a),
  }));
}

export type * from './state.ts';
