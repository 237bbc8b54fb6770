import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  HeaderName,
  HeaderValue,
  type GatewayProfileInput,
  type GatewayProfileSettings,
  type GatewayProfileView,
} from '../../../shared/api/schemas/settings.ts';
import { AppError } from '../app/app-error.ts';

export type StoredProfile = z.infer<typeof GatewayProfileSettings>;
export type ProfileInput = z.infer<typeof GatewayProfileInput>;
export type ProfileView = z.infer<typeof GatewayProfileView>;

export const GATEWAY_HEADERS_VARIABLE = 'ATELIER_GATEWAY_HEADERS';

/**
 * Where extra headers' values are kept, by the id the settings file names them with: the
 * system keyring on the desktop, this process's memory in the browser host and the CLI. They
 * are credentials (a gateway's upstream keys travel in them), so never in the settings file.
 */
export interface HeaderSecrets {
  /** `stored`: kept across starts (encrypted); `memory`: until this process ends. */
  readonly source: 'stored' | 'memory';
  /** The values kept under these ids (an id with none is left out). */
  get(ids: readonly string[]): Promise<Map<string, string>>;
  /** Keeps `added` (new ids) and forgets every id not in `keep`; throws when it cannot keep them. */
  update(added: ReadonlyMap<string, string>, keep: ReadonlySet<string>): Promise<void>;
}

/** The browser host's and the CLI's: this process's memory only, never written anywhere. */
export class MemoryHeaderSecrets implements HeaderSecrets {
  readonly source = 'memory' as const;
  private readonly values = new Map<string, string>();

  async get(ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const id of ids) {
      const value = this.values.get(id);
      if (value !== undefined) found.set(id, value);
    }
    return found;
  }

  async update(added: ReadonlyMap<string, string>, keep: ReadonlySet<string>): Promise<void> {
    for (const [id, value] of added) this.values.set(id, value);
    for (const id of [...this.values.keys()]) if (!keep.has(id)) this.values.delete(id);
  }
}

/** A fresh id for a header's value: random, so an id says nothing about the value. */
export function newHeaderId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * `ATELIER_GATEWAY_HEADERS`, a JSON object of header names to values: sent to the real gateway
 * in use, each winning over a saved header of the same name (as ATELIER_API_KEY wins over a
 * saved key). Read once; a malformed one is a `problem` said when the queue would start.
 */
export function environmentHeaders(env: NodeJS.ProcessEnv): {
  headers: Record<string, string>;
  problem: string | null;
} {
  const text = env[GATEWAY_HEADERS_VARIABLE]?.trim();
  if (!text) return { headers: {}, problem: null };
  const refuse = (why: string) => ({
    headers: {},
    problem:
      `${GATEWAY_HEADERS_VARIABLE} ${why}. It is a JSON object of header names to values, ` +
      `e.g. ${GATEWAY_HEADERS_VARIABLE}='{"X-Portkey-Api-Key":"pk-…"}'.`,
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse('is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return refuse('is not a JSON object');
  }
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(json)) {
    const badName = HeaderName.safeParse(name);
    if (!badName.success)
      return refuse(`names a header it may not: ${badName.error.issues[0]!.message}`);
    const checked = HeaderValue.safeParse(value);
    if (!checked.success) {
      return refuse(`gives ${name} a value it may not have (${checked.error.issues[0]!.message})`);
    }
    if (seen.has(name.toLowerCase())) return refuse(`gives ${name} twice`);
    seen.add(name.toLowerCase());
    headers[name] = checked.data;
  }
  return { headers, problem: null };
}

/**
 * A gateway's extra headers: their names from the settings, their values from the host's
 * secret store and the environment. The only code that ever holds a header's value.
 */
export class GatewayHeaders {
  readonly secrets: HeaderSecrets;
  private readonly fromEnv: Record<string, string>;
  /** Why ATELIER_GATEWAY_HEADERS cannot be used, when it cannot. */
  readonly environmentProblem: string | null;

  constructor(secrets: HeaderSecrets, env: NodeJS.ProcessEnv = process.env) {
    this.secrets = secrets;
    const parsed = environmentHeaders(env);
    this.fromEnv = parsed.headers;
    this.environmentProblem = parsed.problem;
  }

  /** The environment's value for a header name (any case), if it gives one. */
  private environmentValue(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const [key, value] of Object.entries(this.fromEnv)) {
      if (key.toLowerCase() === lower) return value;
    }
    return undefined;
  }

  /**
   * What to send to the profile's gateway: its saved headers' values, then the environment's
   * headers (which win); `missing` lists the saved headers with no value in this process.
   */
  async valuesFor(
    profile: StoredProfile,
  ): Promise<{ headers: Record<string, string>; missing: string[] }> {
    const kept = await this.secrets.get(profile.headers.map((h) => h.id));
    const headers: Record<string, string> = {};
    const missing: string[] = [];
    for (const header of profile.headers) {
      const value = this.environmentValue(header.name) ?? kept.get(header.id);
      if (value === undefined) missing.push(header.name);
      else headers[header.name] = value;
    }
    for (const [name, value] of Object.entries(this.fromEnv)) {
      if (!profile.headers.some((h) => h.name.toLowerCase() === name.toLowerCase())) {
        headers[name] = value;
      }
    }
    return { headers, missing };
  }

  /** The profiles as a client may see them: each header's name and last four characters. */
  async view(profiles: readonly StoredProfile[]): Promise<ProfileView[]> {
    const kept = await this.secrets.get(profiles.flatMap((p) => p.headers.map((h) => h.id)));
    return profiles.map((profile) => ({
      ...profile,
      headers: profile.headers.map((header) => {
        const env = this.environmentValue(header.name);
        const value = env ?? kept.get(header.id);
        return {
          ...header,
          last4: value === undefined ? null : value.slice(-4),
          source: env !== undefined ? 'env' : value === undefined ? null : this.secrets.source,
        };
      }),
    }));
  }

  /**
   * Profiles as a client sent them, as the settings keep them: a header sent with a value gets
   * a fresh id (its value goes to the secret store when `commit` runs); one sent with an id
   * keeps the value under that id, which must be one of `current`'s.
   */
  prepare(
    profiles: readonly ProfileInput[],
    current: readonly StoredProfile[],
  ): { profiles: StoredProfile[]; commit: () => Promise<void> } {
    const known = new Set(current.flatMap((p) => p.headers.map((h) => h.id)));
    const added = new Map<string, string>();
    const stored = profiles.map((profile) => ({
      ...profile,
      headers: profile.headers.map((header) => {
        if ('id' in header) {
          if (!known.has(header.id)) {
            throw new AppError(
              'invalid-argument',
              `The header ${header.name} of "${profile.name}" refers to a value this data ` +
                'folder does not have: give its value again.',
            );
          }
          return { name: header.name, id: header.id };
        }
        const id = newHeaderId();
        added.set(id, header.value);
        return { name: header.name, id };
      }),
    }));
    const keep = new Set(stored.flatMap((p) => p.headers.map((h) => h.id)));
    return { profiles: stored, commit: () => this.secrets.update(added, keep) };
  }

  /** Every header value this process holds, for scrubbing messages. */
  async allValues(profiles: readonly StoredProfile[]): Promise<string[]> {
    const kept = await this.secrets.get(profiles.flatMap((p) => p.headers.map((h) => h.id)));
    return [...kept.values(), ...Object.values(this.fromEnv)];
  }
}
