import { buildRawApi } from '../../../shared/api/raw-client.ts';
import type { Api } from '../../../shared/api/types.ts';
import { unwrap } from '../../../shared/api/unwrap.ts';
import { dispatch } from './dispatch.ts';
import type { ServedApp } from './host.ts';

/**
 * The contract in process, as a client sees it: inputs parsed with their schemas (defaults
 * applied), errors thrown as ApiRequestError. What the CLI and tests call; the same path
 * IPC and HTTP calls take, without the transport.
 */
export function localClient(app: ServedApp, options: { checkOutput?: boolean } = {}): Api {
  const raw = buildRawApi(
    (area, method, input) =>
      dispatch(app.api, area, method, input, {
        toApiError: (error) => app.toApiError(error),
        ...(options.checkOutput ? { checkOutput: true } : {}),
      }),
    app.events,
  );
  return unwrap(raw);
}
