import { z } from 'zod';
import { ModelEntrySchema } from '../../gateway/catalogue.ts';
import { boundedJson } from '../json-limits.ts';

export const KeyStatus = z.object({
  set: z.boolean(),
  /** The last four characters, the only part ever shown. */
  last4: z.string().max(4).nullable(),
  /** env: ATELIER_API_KEY; stored: the system keyring; memory: this process only. */
  source: z.enum(['env', 'stored', 'memory']).nullable(),
  /** Whether `key.set` keeps the key past this run. */
  storable: z.boolean(),
  /** Why the key cannot be stored here, when it cannot. */
  refusal: z.string().nullable(),
});

export const KeyInput = z.object({ key: z.string().min(1).max(1024) });

export const ConnectionTest = z.object({
  ok: z.boolean(),
  /** The gateway's own words when it refused. */
  message: z.string(),
  httpStatus: z.number().int().nullable(),
  /** Model ids the gateway lists, when it offers /v1/models. */
  models: z.array(z.string()).nullable(),
});

export const CatalogueEntry = z.object({
  entry: ModelEntrySchema,
  origin: z.enum(['built-in', 'user']),
});
export const Catalogue = z.object({ entries: z.array(CatalogueEntry) });
/** Entries checked one by one by the service (a message per entry); each within the limits. */
export const SaveModelsInput = z.object({
  entries: z.array(boundedJson(z.unknown())).max(1000),
});

export const LibraryInfo = z.object({
  libraryDir: z.string(),
  dataDir: z.string(),
  /** A file name the template would give, for the live example. */
  example: z.string(),
});
export const SetLibraryInput = z.object({ dir: z.string().min(1).max(4096) });
export const TemplateInput = z.object({ template: z.string().min(1).max(500) });
export const TemplatePreview = z.object({ example: z.string() });

export const AppInfo = z.object({
  version: z.string(),
  host: z.enum(['desktop', 'web', 'cli']),
  /** The built-in simulator answers: nothing is charged. */
  demo: z.boolean(),
  /** A sentence the frame shows at all times (demo mode, a recovered settings file). */
  notice: z.string().nullable(),
  gateway: z.object({ name: z.string(), baseUrl: z.string() }).nullable(),
  capabilities: z.object({
    /** Prompt files can be named by path (the host reads the person's files). */
    pathImport: z.boolean(),
    reveal: z.boolean(),
    openWithViewer: z.boolean(),
    notifications: z.boolean(),
  }),
  /** A settings file that could not be read was set aside here. */
  recoveredSettings: z.object({ backupPath: z.string(), reason: z.string() }).nullable(),
});
