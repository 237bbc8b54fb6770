import { join } from 'node:path';
import { z } from 'zod';
import {
  createCatalogue,
  ModelEntrySchema,
  type Catalogue,
} from '../../../shared/gateway/catalogue.ts';
import { readConfigFile } from './config-file.ts';

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
  const entries = readConfigFile(path, ModelsFileSchema, {
    fix: `Fix ${path} (see "Models" in the README) and run again.`,
    describe: (issue, json) => {
      const [index, ...field] = issue.path;
      if (typeof index !== 'number') {
        return `${path}: the file (an array of model entries is expected): ${issue.message}.`;
      }
      const id = entryId(json, index);
      const where = `entry ${index + 1}${id ? ` ("${id}")` : ''}${field.length ? `, ${field.join('.')}` : ''}`;
      return `${path}: ${where}: ${issue.message}.`;
    },
  });
  return createCatalogue(entries ?? []);
}

function entryId(json: unknown, index: number): string | null {
  const entry = Array.isArray(json) ? (json[index] as { id?: unknown } | undefined) : undefined;
  return typeof entry?.id === 'string' ? entry.id : null;
}
