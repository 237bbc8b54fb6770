import { ApiError } from './http.ts';

/** One API key as the console would configure it. */
export interface KeyConfig {
  key: string;
  name?: string;
  /** Most quota this key may spend; null for no cap. */
  quotaCap?: number | null;
  /** Epoch milliseconds after which the key is refused; null for never. */
  expiresAt?: number | null;
  /** Models this key may call; null for all. */
  models?: string[] | null;
}

export interface KeyState {
  readonly config: KeyConfig;
  /** Quota pre-deducted or charged on this key, counted against quotaCap. */
  used: number;
}

export class KeyRing {
  private readonly keys = new Map<string, KeyState>();

  constructor(configs: KeyConfig[]) {
    for (const config of configs) this.add(config);
  }

  add(config: KeyConfig): KeyState {
    if (!config.key.startsWith('sk-')) throw new Error('Simulator keys must begin with "sk-".');
    const state: KeyState = { config, used: 0 };
    this.keys.set(config.key, state);
    return state;
  }

  get(key: string): KeyState | undefined {
    return this.keys.get(key);
  }

  /** Checks `Authorization: Bearer sk-…`; throws the 401 a real gateway would send. */
  authenticate(header: string | undefined, now = Date.now()): KeyState {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!match) {
      throw new ApiError(
        401,
        'invalid_request_error',
        'missing_api_key',
        'No API key provided. Send it as "Authorization: Bearer sk-…".',
      );
    }
    const state = this.keys.get(match[1] ?? '');
    if (!state) {
      throw new ApiError(
        401,
        'invalid_request_error',
        'invalid_api_key',
        'Invalid API key. Check the key in the console.',
      );
    }
    const { expiresAt } = state.config;
    if (expiresAt != null && now >= expiresAt) {
      throw new ApiError(
        401,
        'invalid_request_error',
        'api_key_expired',
        'This API key has expired. Create a new one in the console.',
      );
    }
    return state;
  }

  /** Refuses a model outside the key's whitelist with 403. */
  authorizeModel(state: KeyState, model: string): void {
    const { models } = state.config;
    if (models && !models.includes(model)) {
      throw new ApiError(
        403,
        'permission_error',
        'model_not_allowed',
        `This API key is not allowed to use model "${model}".`,
      );
    }
  }
}
