import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  createCatalogue,
  ModelEntrySchema,
  type Catalogue,
} from '../../../shared/gateway/catalogue.ts';
import { ConfigError } from '../command.ts';

/**
 * The person's own model entries, beside the database: models Atelier does not ship (a video
 * model, say, which would otherwise be taken for an image model and sent to the image
 * endpoint) or built-ins to correct. An array of catalogue entries; same id: theirs wins.
 */
export const MODELS_FILE = 'models.json';

const ModelsFileSchema = z.array(ModelEntrySchema);

export function modelsPath(dataDir: string): string {
  return join(dataDir, MODELS_FILE);
}

/** The built-in catalogue with `<data>/models.json` merged over it, when there is one. */
export function loadCatalogue(dataDir: string): Catalogue {
  const path = modelsPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return createCatalogue();
    throw new ConfigError(`Cannot read ${path}: ${(error as Error).message}.`);
  }
  const fix = `Fix ${path} (see "Models" in the README) and run again.`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON (${(error as Error).message}). ${fix}`);
  }
  const parsed = ModelsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [index, ...field] = issue.path;
    const id = typeof index === 'number' ? entryId(json, index) : null;
    const where =
      typeof index === 'number'
        ? `entry ${index + 1}${id ? ` ("${id}")` : ''}${field.length ? `, ${field.join('.')}` : ''}`
        : 'the file (an array of model entries is expected)';
    throw new ConfigError(`${path}: ${where}: ${issue.message}. ${fix}`);
  }
  return createCatalogue(parsed.data);
}

function entryId(json: unknown, index: number): string | null {
  const entry = Array.isArray(json) ? (json[index] as { id?: unknown } | undefined) : undefined;
  return typeof entry?.id === 'string' ? entry.id : null;
}
