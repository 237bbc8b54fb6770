import type { EventsSlice, SliceCreator } from './state.ts';

/** Written by the event pump only, with the events it applies. */
export const createEventsSlice: SliceCreator<EventsSlice> = () => () => ({
  cursor: null,
  connection: 'connecting',
  eventSeq: 0,
  resyncs: 0,
  resyncReason: null,
});
