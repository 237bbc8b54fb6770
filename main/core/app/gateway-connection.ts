import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import type { GatewayProfile } from '../../../shared/gateway/profile.ts';
import { createGatewayClient, type GatewayClient } from '../gateway/client.ts';
import type { GatewayContextOptions } from '../gateway/context.ts';

/** A gateway on loopback that answers like the real one and charges nothing (the simulator). */
export interface DemoGateway {
  url: string;
  key: string;
  close(): Promise<void>;
}
/** The host starts it: the core may not import the simulator. */
export type StartDemoGateway = () => Promise<DemoGateway>;

/** Where requests go: the demo, or a real gateway with the person's key. */
export type GatewayTarget =
  { kind: 'demo' } | { kind: 'remote'; profile: GatewayProfile; apiKey: string };

export interface GatewayConnection {
  client: GatewayClient;
  demo: boolean;
  /** For the person: where requests go (never the key). */
  description: string;
  name: string;
  baseUrl: string;
  close(): Promise<void>;
}

/** A client for the target; for the demo, the host's simulator starts first. */
export async function connectGateway(
  target: GatewayTarget,
  catalogue: Catalogue,
  startDemoGateway: StartDemoGateway,
  limits: Pick<GatewayContextOptions, 'maxAnswerBytes'> = {},
): Promise<GatewayConnection> {
  if (target.kind === 'remote') {
    const { profile, apiKey } = target;
    const client = createGatewayClient({ ...limits, profile, apiKey, catalogue });
    return {
      client,
      demo: false,
      description: profile.baseUrl,
      name: profile.name,
      baseUrl: profile.baseUrl,
      close: () => client.close(),
    };
  }
  const gateway = await startDemoGateway();
  const client = createGatewayClient({
    ...limits,
    profile: { name: 'Embedded demo gateway', baseUrl: gateway.url },
    apiKey: gateway.key,
    catalogue,
  });
  return {
    client,
    demo: true,
    description: `the embedded demo gateway (${gateway.url})`,
    name: 'Demo (built-in simulator)',
    baseUrl: gateway.url,
    async close() {
      await client.close();
      await gateway.close();
    },
  };
}
