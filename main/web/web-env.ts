import type { HttpBindings } from '@hono/node-server';
import type { Redactor } from './redact.ts';
import type { Session } from './sessions.ts';

/** What every handler of the web host can reach through its Hono context. */
export interface WebEnv {
  Bindings: HttpBindings;
  Variables: {
    /** This request's view of the secrets no response or log line may carry. */
    redactor: Redactor;
    /** The session whose bearer token the request carries. */
    session?: Session;
    /** When the request came through a signed URL: its expiry, in seconds since the epoch. */
    signedUntil?: number;
  };
}
