import { z } from 'zod';
import { PARSE_ONCE } from '../api/define.ts';

/**
 * How to reach one gateway. Defaults are the interface's own names, so the same client also
 * works through other OpenAI-compatible gateways by changing a setting, not code.
 * The profile is visible to the renderer: it names where the key is kept, never the key.
 */
export const TimeoutsSchema = z.object({
  /** Opening the connection; a failure here means nothing was sent (safe to retry). */
  connectMs: z.number().int().positive().default(10_000),
  /** From sending until the response headers arrive; image generation can take minutes. */
  responseMs: z.number().int().positive().default(300_000),
  /** The whole exchange, body included. */
  totalMs: z.number().int().positive().default(600_000),
});

/**
 * Headers Atelier sets itself (the key, and how the body is framed and the connection kept):
 * one given as an extra header would be sent twice or contradict the body, and the request
 * would fail mid-run. Lower case.
 */
export const HEADERS_ATELIER_SETS: ReadonlySet<string> = new Set([
  'authorization',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);

/** The settings of `multipartImageField`. */
export const MULTIPART_IMAGE_FIELDS = ['auto', 'image', 'image[]'] as const;
export type MultipartImageField = (typeof MULTIPART_IMAGE_FIELDS)[number];

/** An HTTP header name: an RFC 9110 token (letters, digits and `!#$%&'*+.^_`|~-`). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What is wrong with an extra header's name, said for a person, or null. */
export function headerNameProblem(name: string): string | null {
  if (!HEADER_NAME.test(name)) {
    return `"${name}" is not a header name: letters, digits and - only, no spaces or colons.`;
  }
  const lower = name.toLowerCase();
  if (lower === 'authorization') {
    return 'Atelier sends the key itself: remove the Authorization header.';
  }
  if (HEADERS_ATELIER_SETS.has(lower)) return `Atelier sets ${name} itself: remove it.`;
  return null;
}

export const GatewayProfileSchema = z.object({
  name: z.string().min(1).default('Gateway'),
  /** `{base_url}`: the OpenAI root is `{base_url}/v1`. A trailing `/v1` is tolerated. */
  baseUrl: z.url({
    protocol: /^https?$/,
    error: 'The base URL must start with http:// or https://',
  }),
  /** Where the key is stored, e.g. `safe-storage:default` or `env:ATELIER_API_KEY`. */
  keyRef: z.string().min(1).default('env:ATELIER_API_KEY'),
  requestIdHeader: z.string().min(1).default('X-Svc-Request-Id'),
  advancedSegment: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'The advanced path segment is a single path word, e.g. "svc".')
    .default('svc'),
  partialKey: z.string().min(1).default('svc_partial'),
  timeouts: TimeoutsSchema.prefault({}),
  /**
   * How the picture's file part is named in a multipart edit. `auto`: `image` for one file,
   * `image[]` for several (what OpenAI-style gateways read); `image` or `image[]`: that name
   * always, for a gateway that reads only one of them. Never both in one request.
   */
  multipartImageField: z.enum(MULTIPART_IMAGE_FIELDS).default('auto'),
  /** Longest wait a Retry-After may impose before the client treats it as this cap. */
  maxRetryAfterMs: z.number().int().positive().default(120_000),
  /** Headers some gateways need for routing; never an Authorization header. */
  extraHeaders: z
    .record(z.string(), z.string())
    .default({})
    .refine(
      (headers) => !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'),
      'The key is sent by Atelier itself; remove the Authorization header from the extra headers.',
    )
    .refine(
      (headers) =>
        !Object.keys(headers).some((name) => HEADERS_ATELIER_SETS.has(name.toLowerCase())),
      'Atelier sets Content-Length, Transfer-Encoding, Host, Connection and the like itself; remove them from the extra headers.',
    ),
});

export type GatewayProfile = z.infer<typeof GatewayProfileSchema>;
export type GatewayProfileInput = z.input<typeof GatewayProfileSchema>;
export type GatewayTimeouts = z.infer<typeof TimeoutsSchema>;

export function parseProfile(input: GatewayProfileInput): GatewayProfile {
  return GatewayProfileSchema.parse(input, PARSE_ONCE);
}

/** `{base_url}/v1` with exactly one `/v1`, whether or not the person typed it. */
export function apiRoot(profile: Pick<GatewayProfile, 'baseUrl'>): string {
  const base = profile.baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? base : `${base}/v1`;
}
