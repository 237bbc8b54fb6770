import { join } from 'node:path';
import { z } from 'zod';
import {
  createCatalogue,
  ModelEntrySchema,
  type Catalogue,
  type ModelEntry,
} from '../../../shared/gateway/catalogue.ts';
import { lazy } from '../../../shared/api/define.ts';
import { AppError } from './app-error.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { readConfigFile } from './config-file.ts';

/**
 * The person's own model entries, beside the database: models Atelier does not ship (a video
 * model, say, which would otherwise be taken for an image model and sent to the image
 * endpoint) or built-ins to correct. An array of catalogue entries; same id: theirs wins.
 */
export const MODELS_FILE = 'models.json';

const ModelsFileSchema = lazy(() => z.array(ModelEntrySchema.unwrap()));

export function modelsPath(dataDir: string): string {
  return join(dataDir, MODELS_FILE);
}

/** The built-in catalogue with `<data>/models.json` merged over it, when there is one. */
export function loadCatalogue(dataDir: string): Catalogue {
  return createCatalogue(loadUserEntries(dataDir));
}

/** The person's own entries (`<data>/models.json`), none when there is no file. */
export function loadUserEntries(dataDir: string): ModelEntry[] {
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
  return entries ?? [];
}

/** Checks every entry (an `invalid-argument` AppError naming the first bad one), then saves. */
export function saveUserEntries(dataDir: string, entries: readonly unknown[]): ModelEntry[] {
  const parsed = ModelsFileSchema.safeParse(entries);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [index, ...field] = issue.path;
    const id = typeof index === 'number' ? entryId(entries, index) : null;
    throw new AppError(
      'invalid-argument',
      `Model ${typeof index === 'number' ? index + 1 : ''}${id ? ` ("${id}")` : ''}` +
        `${field.length ? `, ${field.join('.')}` : ''}: ${issue.message}.`,
    );
  }
  const ids = new Set<string>();
  for (const entry of parsed.data) {
    if (ids.has(entry.id)) {
      throw new AppError('invalid-argument', `The model "${entry.id}" is listed twice: keep one.`);
    }
    ids.add(entry.id);
  }
  writeFileAtomic(modelsPath(dataDir), `${JSON.stringify(parsed.data, null, 2)}\n`);
  return parsed.data;
}

function entryId(json: unknown, index: number): string | null {
  const entry = Array.isArray(json) ? (json[index] as { id?: unknown } | undefined) : undefined;
  return typeof entry?.id === 'string' ? entry.id : null;
}
