import { parseProfile, type GatewayProfile } from '../../../shared/gateway/profile.ts';
import type { DemoGateway } from '../../core/app/gateway-connection.ts';
import { ConfigError } from '../command.ts';
import type { GatewayChoice } from './saved-settings.ts';

import { API_KEY_VARIABLE } from '../../core/app/key.ts';

/** A little latency, so the demo's progress bar has something to show. */
const DEMO_LATENCY = { fixedMs: 150, jitterMs: 250 };

/**
 * The key for a real gateway, checked before anything is imported or started. The demo's
 * embedded gateway makes its own key.
 */
export function requireApiKey(choice: GatewayChoice, env: NodeJS.ProcessEnv): string | null {
  if (choice.kind === 'demo') return null;
  const key = env[API_KEY_VARIABLE]?.trim();
  if (!key) {
    throw new ConfigError(
      `No API key: set ${API_KEY_VARIABLE} to your gateway key, e.g.\n` +
        `  export ${API_KEY_VARIABLE}=sk-…        (PowerShell: $env:${API_KEY_VARIABLE}="sk-…")\n` +
        'or try Atelier without one on the embedded simulator with --demo.',
    );
  }
  return key;
}

/** The profile for a real gateway; a bad URL or header is the person's to fix. */
export function remoteProfile(choice: Extract<GatewayChoice, { kind: 'remote' }>): GatewayProfile {
  try {
    return parseProfile({
      name: 'Command line',
      baseUrl: choice.baseUrl,
      keyRef: `env:${API_KEY_VARIABLE}`,
      extraHeaders: choice.extraHeaders,
    });
  } catch (error) {
    const issues = (error as { issues?: Array<{ message: string }> }).issues;
    const reason = issues?.map((issue) => issue.message).join(' ') ?? (error as Error).message;
    throw new ConfigError(`--gateway ${choice.baseUrl}: ${reason}`);
  }
}

/** The simulator, loaded only for the demo: a real gateway's run does not need its code. */
export async function startDemoGateway(): Promise<DemoGateway> {
  const { startGateway } = await import('../../simulator/index.ts');
  return startGateway({ latency: DEMO_LATENCY });
}
