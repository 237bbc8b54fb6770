import { z } from 'zod';
import { lazy } from '../../api/define.ts';

/** Body of POST /v1/videos. Payload beyond these names: not shown by the interface. */
export interface VideoSubmitBody {
  model: string;
  prompt: string;
  seconds?: string;
  size?: string;
  [field: string]: unknown;
}

/**
 * A video task record (interface 3): an id, a status, a progress and a fail reason. Field
 * names differ between gateways, so several spellings are read.
 */
export const VideoTaskBodySchema = lazy(() =>
  z.looseObject({
    id: z.string().nullish(),
    task_id: z.string().nullish(),
    status: z.string().nullish(),
    /** The platform state (SUCCESS | FAILURE | IN_PROGRESS) beside an OpenAI-style `status`. */
    task_status: z.string().nullish(),
    progress: z.union([z.number(), z.string()]).nullish(),
    fail_reason: z.string().nullish(),
    error: z.unknown().optional(),
    data: z.unknown().optional(),
  }),
);
