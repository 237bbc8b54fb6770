import { z } from 'zod';
import { lazy } from '../../api/define.ts';

/** The error's code, a string or a number (built with the schema that holds it). */
const code = () => z.union([z.string(), z.number()]).nullish();

/** Ordinary API error (interface 7 rule 1): `{error: {type, code, message}}`. */
export const ApiErrorBodySchema = lazy(() =>
  z.looseObject({
    error: z.looseObject({
      type: z.string().nullish(),
      code: code(),
      message: z.string().nullish(),
    }),
    upstream_request_id: z.string().nullish(),
  }),
);

/** Task and video error (interface 7 rule 2): top-level `code`, `message`, `data`. */
export const TaskErrorBodySchema = lazy(() =>
  z.looseObject({
    code: code(),
    message: z.string().nullish(),
    data: z.unknown().optional(),
    upstream_request_id: z.string().nullish(),
  }),
);

/** An error as the classifier sees it, whichever of the two shapes it came in. */
export interface ErrorDetails {
  type: string | null;
  code: string | null;
  message: string | null;
}
