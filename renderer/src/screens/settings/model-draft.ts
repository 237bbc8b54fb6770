import {
  builtInModels,
  ModelEntrySchema,
  type ModelEntry,
} from '../../../../shared/gateway/catalogue.ts';

/** A new entry's starting text: an image model with the fields most gateways need. */
export const NEW_MODEL_TEXT = `{
  "kind": "image",
  "id": "my-model",
  "protocol": "openai",
  "sizes": ["1024x1024"],
  "nMax": 4
}`;

export const BUILT_IN_IDS: ReadonlySet<string> = new Set(builtInModels().map((m) => m.id));

export type ModelCheck = { entry: ModelEntry; error: null } | { entry: null; error: string };

/**
 * An entry as typed, checked with the same schema as models.json; `otherIds` are the
 * person's other entries (one entry per id).
 */
export function checkModelText(text: string, otherIds: readonly string[]): ModelCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { entry: null, error: `Not JSON yet: ${(error as Error).message}` };
  }
  const parsed = ModelEntrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    // zod says "Invalid input: expected string, received undefined" for a field left out
    const message = issue.message.replace(
      /^Invalid input: expected (\w+), received undefined$/,
      'missing (a $1 is expected)',
    );
    return { entry: null, error: `${where}${message}` };
  }
  if (otherIds.includes(parsed.data.id)) {
    return {
      entry: null,
      error: `You already have an entry for "${parsed.data.id}": edit that one.`,
    };
  }
  return { entry: parsed.data, error: null };
}

/** Pretty JSON of an entry, for viewing and editing. */
export function modelText(entry: ModelEntry): string {
  return JSON.stringify(entry, null, 2);
}
