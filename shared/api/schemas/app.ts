import { z } from 'zod';
import { ModelEntrySchema, OUTPUT_FORMATS } from '../../gateway/catalogue.ts';
import { Count, lazy } from '../define.ts';
import { boundedJson } from '../json-limits.ts';

export const KeyStatus = lazy(() =>
  z.object({
    set: z.boolean(),
    /** The last four characters, the only part ever shown. */
    last4: z.string().max(4).nullable(),
    /** env: ATELIER_API_KEY; stored: the system keyring; memory: this process only. */
    source: z.enum(['env', 'stored', 'memory']).nullable(),
    /** Whether `key.set` keeps the key past this run. */
    storable: z.boolean(),
    /** Why the key cannot be stored here, when it cannot. */
    refusal: z.string().nullable(),
    /** The gateway profile this is about; null: the shared key, for profiles without their own. */
    profile: z.string().nullable().optional(),
    /** The profile has no key of its own: the shared key (this one) serves it. */
    shared: z.boolean().optional(),
    /**
     * Why `key.set` and `key.clear` are refused here now, said before a click: ATELIER_API_KEY
     * in the environment decides, for every gateway. Null when they are not.
     */
    locked: z.string().nullable().optional(),
  }),
);

/** A gateway profile's name; left out: the shared key (every profile without one of its own). */
const KeyProfile = z.string().min(1).max(200).optional();

export const KeyInput = lazy(() =>
  z.object({ key: z.string().min(1).max(1024), profile: KeyProfile }),
);
export const KeyScope = lazy(() => z.object({ profile: KeyProfile }).strict().prefault({}));
/** `key.test`: the profile's gateway (left out: the settings' gateway), with its key. */
export const ConnectionInput = lazy(() => z.object({ profile: KeyProfile }).strict().prefault({}));

export const ConnectionTest = lazy(() =>
  z.object({
    ok: z.boolean(),
    /** The gateway's own words when it refused. */
    message: z.string(),
    httpStatus: z.number().int().nullable(),
    /** Model ids the gateway lists, when it offers /v1/models. */
    models: z.array(z.string()).nullable(),
    /**
     * Of `models`, those the catalogue has no entry for (taken as image models with the OpenAI
     * body until told otherwise): `models.addEntries` adds them from a small form.
     */
    unknownModels: z.array(z.string()).nullable().optional(),
  }),
);

export const CatalogueEntry = lazy(() =>
  z.object({
    entry: ModelEntrySchema,
    origin: z.enum(['built-in', 'user']),
  }),
);
export const Catalogue = lazy(() => z.object({ entries: z.array(CatalogueEntry) }));
/** Entries checked one by one by the service (a message per entry); each within the limits. */
export const SaveModelsInput = lazy(() =>
  z.object({
    entries: z.array(boundedJson(z.unknown())).max(1000),
  }),
);

const ModelId = z
  .string()
  .trim()
  .min(1, 'the model needs its id, as the gateway names it')
  .max(200)
  .regex(/^[^\s]+$/, 'a model id has no spaces');
const Size = z.string().regex(/^\d+x\d+$/, 'a size is WxH, as 1024x1024');
const Seconds = z.string().regex(/^\d+$/, 'whole seconds, as "8"');

/**
 * A model the person adds from a small form, not raw JSON: what kind it is and the few facts
 * a form asks (the rest take the catalogue's defaults). `models.addEntries` turns each into
 * a catalogue entry of `<data>/models.json`.
 */
export const ModelForm = lazy(() =>
  z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('image'),
        id: ModelId,
        /** The body it speaks: OpenAI's (most), Qwen's, or the advanced entry's. */
        protocol: z.enum(['openai', 'qwen', 'advanced']).default('openai'),
        /** The sizes it takes; left out, any size (the gateway decides). */
        sizes: z.array(Size).min(1).max(64).optional(),
        nMax: z.number().int().min(1).max(10).optional(),
        quality: z.array(z.string().min(1).max(32)).max(16).optional(),
        outputFormats: z.array(z.enum(OUTPUT_FORMATS)).optional(),
        seed: z.boolean().optional(),
        negativePrompt: z.boolean().optional(),
        /** Whether it edits pictures (multipart, as gpt-image-1). */
        edits: z.boolean().optional(),
        /** Quota units an image, for the estimate and the spend; left out: unknown. */
        pricePerImage: z.number().nonnegative().optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('video'),
        id: ModelId,
        submitPath: z.enum(['videos', 'video-generations']).default('videos'),
        seconds: z.array(Seconds).max(32).optional(),
        sizes: z.array(Size).max(64).optional(),
        usualSeconds: z.number().int().positive().max(86_400).optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('text'),
        id: ModelId,
        api: z.enum(['chat', 'responses']).default('chat'),
      })
      .strict(),
  ]),
);

export const AddModelsInput = lazy(() =>
  z.object({
    entries: z.array(ModelForm).min(1).max(200),
    /** Replace the person's own entries of the same ids (else such an id is refused). */
    replace: z.boolean().default(false),
  }),
);

export const LibraryInfo = lazy(() =>
  z.object({
    libraryDir: z.string(),
    dataDir: z.string(),
    /** A file name the template would give, for the live example. */
    example: z.string(),
  }),
);
export const SetLibraryInput = lazy(() => z.object({ dir: z.string().min(1).max(4096) }));

/**
 * Moving the library's files to a new, empty folder. `copying`: every file is copied there
 * (the library stays where it was, whole, until all are); `removing`: the library is the new
 * folder, the old copies go. `interrupted`: Atelier stopped mid-way (the library works where
 * it is): resume it, or (while copying) roll it back.
 */
export const LibraryMove = lazy(() =>
  z.object({
    id: z.string(),
    state: z.enum(['running', 'done', 'canceled', 'failed', 'interrupted']),
    phase: z.enum(['copying', 'removing']),
    from: z.string(),
    to: z.string(),
    /** Files moved so far, and in all. */
    done: Count,
    total: Count,
    bytes: Count,
    totalBytes: Count,
    /** What stays where it was, and why (a link out of the library is never followed); capped. */
    leftBehind: z.array(z.object({ path: z.string(), reason: z.string() })),
    error: z.string().nullable(),
  }),
);
export const TemplateInput = lazy(() => z.object({ template: z.string().min(1).max(500) }));
export const TemplatePreview = lazy(() => z.object({ example: z.string() }));

export const AppInfo = lazy(() =>
  z.object({
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
  }),
);
