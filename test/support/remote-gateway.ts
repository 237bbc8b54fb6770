import type { RunningGateway } from '../../main/simulator/index.ts';
import type { Api } from '../../shared/api/types.ts';

/** Makes `gateway` (a simulator of the test's own) the settings' gateway, with a key: the queue starts. */
export async function useGateway(
  api: Api,
  gateway: RunningGateway,
  key: string = gateway.key,
): Promise<void> {
  await api.settings.update({
    profiles: [
      {
        name: 'Sim',
        baseUrl: gateway.url,
        requestIdHeader: 'X-Svc-Request-Id',
        advancedSegment: 'svc',
        partialKey: 'svc_partial',
      },
    ],
    gateway: { kind: 'remote', profile: 'Sim' },
  });
  await api.key.set({ key });
}
