import { API_KEY_VARIABLE } from '../../core/app/key.ts';
import { ConfigError } from '../command.ts';

/**
 * The key for a real gateway, checked before anything is imported or started. The demo's
 * embedded gateway makes its own key.
 */
export function requireApiKey(env: NodeJS.ProcessEnv): void {
  if (env[API_KEY_VARIABLE]?.trim()) return;
  throw new ConfigError(
    `No API key: set ${API_KEY_VARIABLE} to your gateway key, e.g.\n` +
      `  export ${API_KEY_VARIABLE}=sk-…        (PowerShell: $env:${API_KEY_VARIABLE}="sk-…")\n` +
      'or try Atelier without one on the embedded simulator with --demo.',
  );
}
