import { createStore } from 'zustand/vanilla';
import { storeContext } from '../../views/store-context.ts';

/** What the queue screen shows: the batch whose jobs are listed (kept when leaving the screen). */
export interface QueueUi {
  selectedBatchId: number | null;
  selectBatch(id: number | null): void;
}

export const createQueueUi = () =>
  createStore<QueueUi>()((set) => ({
    selectedBatchId: null,
    selectBatch: (selectedBatchId) => set({ selectedBatchId }),
  }));

export const queueUi = storeContext<QueueUi>('The queue screen');
