import type { PartialPlacement } from '../options.ts';

export interface ImageItem {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
  /** The seed it was made with (as some gateways say; the interface does not promise it). */
  seed?: number;
}

export interface PartialCounts {
  requested: number;
  returned: number;
}

/** The image response (interface 2.5), with partial-success metadata when fewer came back. */
export function imageResponseBody(options: {
  data: ImageItem[];
  upstreamRequestId: string;
  partial: PartialCounts | null;
  partialKey: string;
  placement: PartialPlacement;
  now?: number;
}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    created: Math.floor((options.now ?? Date.now()) / 1000),
    data: options.data,
    upstream_request_id: options.upstreamRequestId,
  };
  const { partial, partialKey } = options;
  if (!partial) return body;
  const counts = {
    requested_n: partial.requested,
    returned_n: partial.returned,
    failed_requests: partial.requested - partial.returned,
  };
  switch (options.placement) {
    case 'metadata':
      body.metadata = { [partialKey]: true, ...counts };
      break;
    case 'top-level':
      body.metadata = { [partialKey]: true };
      Object.assign(body, counts);
      break;
    case 'nested':
      body.metadata = { [partialKey]: counts };
      break;
  }
  return body;
}

/** How many images a `partial` fault lets through: at least one, fewer than asked. */
export function partialCount(requested: number): number {
  return Math.max(1, Math.floor(requested / 2));
}

const STYLES = [
  'soft studio light',
  'golden-hour light',
  'overcast daylight',
  'dramatic rim light',
];
const FINISH = ['rich detail', 'a shallow depth of field', 'muted colours', 'crisp focus'];

/** A deterministic rewrite of the prompt, as models that "revise" prompts return. */
export function revisePrompt(prompt: string, seed: number): string {
  const style = STYLES[seed % STYLES.length];
  const finish = FINISH[(seed >>> 8) % FINISH.length];
  return `${prompt.trim().replace(/[.!\s]+$/, '')}, shown in ${style} with ${finish}.`;
}
