import type { ComposeDraft } from '../../compose/draft.ts';
import { SEED_MAX } from '../../../../../shared/gateway/params.ts';
import { rerunDraft, type ImageDetail } from './rerun-draft.ts';

/** How many variations "More like this" asks for. */
export const VARIATIONS = 4;

/** A seed from the whole range the gateway takes. */
export function randomSeed(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high! * 2 ** 32 + low!) % (SEED_MAX + 1);
}

/**
 * "More like this": the image's prompt and parameters with new seeds, so each comes out
 * different yet can be made again (the seeds are in Compose to see). A model that took no
 * seed makes one more with its own chance.
 */
export function moreLikeThisDraft(
  detail: ImageDetail,
  seed: () => number = randomSeed,
): ComposeDraft {
  const draft = rerunDraft(detail);
  if (detail.seed === null) return { ...draft, seeds: '' };
  const seeds = new Set<number>();
  while (seeds.size < VARIATIONS) {
    const next = seed();
    if (next !== detail.seed) seeds.add(next);
  }
  return { ...draft, seeds: [...seeds].join(', ') };
}
