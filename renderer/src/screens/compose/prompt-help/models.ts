import { promptLimitOf, type ModelEntry } from '../../../../../shared/gateway/catalogue.ts';
import type { ComposeDraft } from '../draft.ts';

/** The model prompt help writes for: it decides the wording and the limit each prompt is cut to. */
export interface Target {
  model: string;
  kind: 'image' | 'video';
  /** Characters; null when its entry names no limit. */
  limit: number | null;
}

/**
 * Of the models chosen in this mode, the one whose prompts must be shortest (so every chosen
 * model takes what is written); null when none is chosen.
 */
export function targetOf(draft: ComposeDraft, entries: readonly ModelEntry[]): Target | null {
  const chosen = draft.mode === 'video' ? draft.videoModels : draft.models;
  const byId = new Map(entries.map((e) => [e.id, e]));
  let best: Target | null = null;
  for (const model of chosen) {
    const entry = byId.get(model);
    const limit = entry ? promptLimitOf(entry) : null;
    const target: Target = { model, kind: draft.mode, limit };
    if (!best || (limit !== null && (best.limit === null || limit < best.limit))) best = target;
  }
  return best;
}

/** The text models to choose from: the catalogue's, and the one in Settings if it has not. */
export function textModelsOf(
  entries: readonly ModelEntry[],
  fromSettings: string | null,
): string[] {
  const ids = entries.filter((e) => e.kind === 'text').map((e) => e.id);
  return fromSettings && !ids.includes(fromSettings) ? [...ids, fromSettings] : ids;
}
