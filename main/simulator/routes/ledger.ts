import type { GatewayState, Route } from '../context.ts';
import { sendJson } from '../http.ts';

/**
 * GET /_simulator/ledger: the calling key's billed calls and what they cost, so a test that
 * runs the simulator as a process can check what was generated (no real gateway has it).
 */
export function ledgerRoutes(state: GatewayState): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/_simulator\/ledger$/,
      auth: true,
      faults: null,
      handler: async (ctx) => {
        const key = ctx.key?.config.key;
        const entries = state.ledger
          .entries()
          .filter((entry) => entry.key === key)
          .map(({ key: _key, ...entry }) => entry);
        await sendJson(ctx, 200, {
          entries,
          charged: state.ledger.totalCharged(key),
          balance: state.ledger.balance,
        });
      },
    },
  ];
}
