import type { Outcome } from '../../../../shared/gateway/outcome.ts';
import type { GatewayContext } from '../context.ts';
import { callJson } from '../http/call-json.ts';
import type { CallOptions } from '../http/exchange.ts';

/**
 * Model names from GET /v1/models, where the gateway offers it; `null` when it does not
 * (404, 405, 501): the catalogue is then the only list. Other failures are reported as such.
 */
export async function listModels(
  context: GatewayContext,
  options: CallOptions = {},
): Promise<Outcome<string[] | null>> {
  const outcome = await callJson(context, { method: 'GET', path: '/models' }, options, (body) => {
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data))
      return { kind: 'bad-body', status: 200, detail: 'it has no "data" list' };
    const names = data
      .map((item) => (typeof item === 'string' ? item : (item as { id?: unknown })?.id))
      .filter((id): id is string => typeof id === 'string' && id !== '');
    return { ok: true, value: names };
  });
  if (!outcome.ok && outcome.status !== null && [404, 405, 501].includes(outcome.status)) {
    return { ok: true, value: null, status: outcome.status, requestIds: outcome.requestIds };
  }
  return outcome;
}
