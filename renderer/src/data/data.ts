import type { QueryClient } from '@tanstack/react-query';
import type { Api } from '../../../shared/api/types.ts';
import { ConnectionState } from './connection.ts';
import { EventBus } from './event-bus.ts';
import { IdLoader } from './id-loader.ts';
import { createQueryClient } from './query-client.ts';
import { Refresher, type RefresherClock } from './refresh.ts';
import type { ImageSummary, JobSummary } from './types.ts';

/** The window's server data: the cache, what fills it, and what the events tell. */
export interface Data {
  api: Api;
  queries: QueryClient;
  refresher: Refresher;
  /** Row summaries, the rows of a render fetched together. */
  jobs: IdLoader<JobSummary>;
  images: IdLoader<ImageSummary>;
  bus: EventBus;
  connection: ConnectionState;
}

export function createData(
  api: Api,
  queries: QueryClient = createQueryClient(),
  clock?: RefresherClock,
): Data {
  return {
    api,
    queries,
    refresher: new Refresher(queries, clock),
    jobs: new IdLoader((ids) => api.jobs.byIds({ ids })),
    images: new IdLoader((ids) => api.images.byIds({ ids })),
    bus: new EventBus(),
    connection: new ConnectionState(),
  };
}
