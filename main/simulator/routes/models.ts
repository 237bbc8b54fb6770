import type { GatewayState, Route } from '../context.ts';
import { sendJson } from '../http.ts';

/** GET /v1/models: the OpenAI-style list of model names this key may use. */
export function modelRoutes(state: GatewayState): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/v1\/models$/,
      auth: true,
      faults: null,
      handler: async (ctx) => {
        const allowed = ctx.key?.config.models;
        const data = [...state.models.values()]
          .filter((m) => !allowed || allowed.includes(m.id))
          .map((m) => ({
            id: m.id,
            object: 'model',
            created: 0,
            owned_by: 'atelier-simulator',
            type: m.kind,
          }));
        await sendJson(ctx, 200, { object: 'list', data });
      },
    },
  ];
}
