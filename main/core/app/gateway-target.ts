import type { ApiError } from '../../../shared/api/errors.ts';
import { parseProfile } from '../../../shared/gateway/profile.ts';
import { GATEWAY_HEADERS_VARIABLE, type GatewayHeaders } from '../settings/header-secrets.ts';
import type { GatewayTarget } from './gateway-connection.ts';
import type { KeyProvider } from './key.ts';
import type { SettingsValue } from './settings-store.ts';

/**
 * Where the settings send requests: the demo, or the chosen profile with the key and its
 * headers' values; or why it cannot be used yet, as the contract says it. The queue and
 * `key.test` both ask this.
 */
export async function gatewayTarget(
  settings: SettingsValue,
  keys: KeyProvider,
  headers: GatewayHeaders,
): Promise<GatewayTarget | ApiError> {
  if (settings.gateway.kind === 'demo') return { kind: 'demo' };
  const name = settings.gateway.profile;
  const saved = settings.profiles.find((p) => p.name === name);
  if (!saved) {
    return {
      code: 'settings-invalid',
      message: `The gateway "${name}" chosen in the settings has no profile: choose another one or add it.`,
    };
  }
  const apiKey = await keys.get(name);
  if (!apiKey) {
    return { code: 'key-missing', message: `No API key is set for the gateway "${name}".` };
  }
  if (headers.environmentProblem) {
    return { code: 'settings-invalid', message: headers.environmentProblem };
  }
  const { headers: extraHeaders, missing } = await headers.valuesFor(saved);
  if (missing.length > 0) {
    const list = missing.join(', ');
    return {
      code: 'key-missing',
      message:
        `The gateway "${name}" needs its extra header${missing.length > 1 ? 's' : ''} ${list}, ` +
        `whose value this Atelier does not have (header values are credentials, kept apart ` +
        `from the settings file): enter ${missing.length > 1 ? 'them' : 'it'} again in ` +
        `Settings, give --header, or set ${GATEWAY_HEADERS_VARIABLE}.`,
      details: { headers: missing },
    };
  }
  try {
    return { kind: 'remote', profile: parseProfile({ ...saved, extraHeaders }), apiKey };
  } catch (error) {
    return {
      code: 'settings-invalid',
      message: `The gateway "${name}" is not set up right: ${(error as Error).message}`,
    };
  }
}
