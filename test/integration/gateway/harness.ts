import { request } from 'undici';
import { afterEach } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../main/core/gateway/client.ts';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
} from '../../../main/simulator/index.ts';
import type { GatewayProfileInput } from '../../../shared/gateway/profile.ts';
import type { Outcome } from '../../../shared/gateway/outcome.ts';

/** A simulator and a client pointed at it, with every request and log line recorded. */
export interface Rig {
  gateway: RunningGateway;
  client: GatewayClient;
  /** URLs the client handed to its transport (one per redirect hop): what left the machine. */
  sent: string[];
  log: string[];
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

export async function rig(
  options: GatewayOptions = {},
  client: { profile?: Partial<GatewayProfileInput>; apiKey?: string | (() => string | null) } = {},
): Promise<Rig> {
  const gateway = await startGateway(options);
  const sent: string[] = [];
  const log: string[] = [];
  const gatewayClient = createGatewayClient({
    profile: { baseUrl: gateway.url, ...client.profile },
    apiKey: client.apiKey ?? gateway.key,
    log: (line) => log.push(line),
    request: (url, options) => {
      sent.push(String(url));
      return request(url, options);
    },
  });
  open.push(async () => {
    await gatewayClient.close();
    await gateway.close();
  });
  return { gateway, client: gatewayClient, sent, log };
}

/** Registers something else to close after the test. */
export function closeLater(close: () => Promise<void> | void): void {
  open.push(async () => {
    await close();
  });
}

export function success<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.decision}: ${outcome.message}`);
  return outcome.value;
}

export function failure<T>(outcome: Outcome<T>) {
  if (outcome.ok) throw new Error('expected a failure, got success');
  return outcome;
}

export async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
