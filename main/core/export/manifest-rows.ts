import type { CsvValue } from '../library/csv.ts';

/** The export's manifest.csv columns, one row per image of the source. */
export const EXPORT_MANIFEST_COLUMNS = [
  'file',
  'image_id',
  'batch',
  'prompt',
  'revised_prompt',
  'negative_prompt',
  'model',
  'size',
  'width',
  'height',
  'format',
  'bytes',
  'seed',
  'params',
  'favorite',
  'created_at',
  'sha256',
  'request_id',
  'upstream_request_id',
  'note',
] as const;

/** What an export knows of one written image: where it is and what the manifest says of it. */
export interface ExportRecord {
  imageId: number;
  /** Inside the library, with forward slashes: the entry's name in the zip. */
  relPath: string;
  absolutePath: string;
  /** The library folder `absolutePath` was resolved in: the file must really be inside it. */
  libraryDir: string;
  batch: string;
  prompt: string;
  revisedPrompt: string | null;
  negativePrompt: string | null;
  model: string;
  /** The size asked for; width and height are the file's. */
  size: string | null;
  width: number | null;
  height: number | null;
  format: string | null;
  bytes: number | null;
  seed: number | null;
  params: Record<string, unknown>;
  favorite: boolean;
  createdAt: number;
  sha256: string | null;
  requestId: string | null;
  upstreamRequestId: string | null;
}

/** One manifest row: `file` is the name in the zip, null when the image is not in it. */
export function exportManifestRow(
  file: string | null,
  record: ExportRecord,
  note: string | null = null,
): CsvValue[] {
  return [
    file,
    record.imageId,
    record.batch,
    record.prompt,
    record.revisedPrompt,
    record.negativePrompt,
    record.model,
    record.size,
    record.width,
    record.height,
    record.format,
    record.bytes,
    record.seed,
    JSON.stringify(record.params),
    record.favorite,
    new Date(record.createdAt).toISOString(),
    record.sha256,
    record.requestId,
    record.upstreamRequestId,
    note,
  ];
}
