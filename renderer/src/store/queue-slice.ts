import { errorMessage } from './error-message.ts';
import type { QueueSlice, SliceCreator } from './state.ts';

export const createQueueSlice: SliceCreator<QueueSlice> = (api) => (set, get) => ({
  engine: null,
  runner: null,
  limits: null,
  progress: null,
  paused: null,
  queueError: null,

  async loadQueue() {
    const seq = get().eventSeq;
    try {
      const queue = await api.queue.state();
      const raced = get().eventSeq !== seq;
      // events applied meanwhile are newer than this answer: keep what they set
      set((s) => ({
        engine: queue.engine,
        runner: queue.runner,
        limits: raced && s.limits ? s.limits : queue.limits,
        progress: raced && s.progress ? s.progress : queue.progress,
        paused: raced && s.progress ? s.paused : queue.paused,
        queueError: null,
      }));
    } catch (error) {
      set({ queueError: errorMessage(error) });
    }
  },

  async resumeQueue() {
    try {
      await api.queue.resume();
      set({ paused: null, queueError: null });
    } catch (error) {
      set({ queueError: errorMessage(error) });
    }
  },

  async pauseQueue(reason) {
    try {
      await api.queue.pause(reason === undefined ? {} : { reason });
      set({ queueError: null });
    } catch (error) {
      set({ queueError: errorMessage(error) });
    }
  },
});
