import { compileTemplate, type CompiledTemplate } from './compiled-template.ts';
import { MAX_COMPONENT_BYTES, sanitizeComponent } from './portable-name.ts';
import { SLUG_MAX_BYTES, slugify } from './slug.ts';
import type { TemplateToken, TemplateVariable } from './template.ts';
import { SUFFIX_ROOM_BYTES } from './unique-name.ts';

export interface NamingInput {
  /** The batch's folder name (from batchDirName). */
  batch: string;
  /** 1-based row of the prompt in its batch. */
  index: number;
  /** Digits {index} is padded to: enough for the batch's last row, at least 4. */
  indexWidth?: number;
  /** 1-based image number within the prompt. */
  image: number;
  /** How many images the prompt asked for: above 1, file names need {image}. */
  imageCount: number;
  prompt: string;
  name?: string | null;
  seed?: number | null;
  model: string;
  size?: string | null;
  job: number;
  date: Date;
  /** Image format or extension: png, jpeg, jpg, webp, mp4… */
  ext: string;
}

/**
 * The image's path relative to the library, with "/" between folders. Pass the engine's
 * CompiledTemplate; a template's text or tokens are compiled on every call.
 */
export function renderRelativePath(
  template: CompiledTemplate | string | readonly TemplateToken[],
  input: NamingInput,
): string {
  const compiled = isCompiled(template) ? template : compileTemplate(template);
  const values = variableValues(input, compiled);
  let path = '';
  for (const folder of compiled.folders) {
    path += `${sanitizeComponent(renderComponent(folder, values), 'folder')}/`;
  }
  // the file: render the stem apart so truncation never eats the extension
  let stem = renderComponent(compiled.stem, values);
  if (input.imageCount > 1 && !compiled.usesImage) stem = `${stem}_${values.image}`;
  const ext = values.ext;
  // extensionFor's ext is ASCII: its length is its UTF-8 length
  const stemMax = MAX_COMPONENT_BYTES - ext.length - 1 - SUFFIX_ROOM_BYTES;
  return `${path}${sanitizeComponent(stem, 'image', stemMax)}.${ext}`;
}

function isCompiled(
  template: CompiledTemplate | string | readonly TemplateToken[],
): template is CompiledTemplate {
  return typeof template !== 'string' && !Array.isArray(template);
}

export function extensionFor(format: string): string {
  const ext = format.toLowerCase().replace(/^\./, '');
  if (ext === 'jpeg') return 'jpg';
  if (!/^[a-z0-9]{1,10}$/.test(ext)) {
    throw new Error(`"${format}" is not a usable file extension (expected png, jpg, webp…).`);
  }
  return ext;
}

/** The variables' values; the costly slug, name and date only when the template uses them. */
function variableValues(
  input: NamingInput,
  compiled: CompiledTemplate,
): Record<TemplateVariable, string> {
  const width = Math.max(input.indexWidth ?? 4, 1);
  const needsName = compiled.usesName && Boolean(input.name?.trim());
  const slug =
    compiled.usesSlug || (compiled.usesName && !needsName)
      ? slugify(input.prompt) || 'untitled'
      : '';
  const name = needsName ? slugOrName(input.name!) : slug;
  // an invalid date throws whether or not the template shows it
  const date = compiled.usesDate ? dateText(input.date) : checkDate(input.date);
  return {
    batch: input.batch,
    index: String(input.index).padStart(width, '0'),
    image: String(input.image),
    slug,
    name,
    seed: input.seed == null ? '' : String(input.seed),
    model: input.model,
    size: input.size ?? '',
    job: String(input.job),
    date,
    ext: extensionFor(input.ext),
  };
}

/** YYYY-MM-DD in UTC, as toISOString writes it (which is slower: only for other years). */
function dateText(date: Date): string {
  const year = date.getUTCFullYear();
  // NaN (an invalid date) fails the test: toISOString throws its RangeError
  if (!(year >= 0 && year <= 9999)) return date.toISOString().slice(0, 10);
  const month = twoDigits(date.getUTCMonth() + 1);
  return `${String(year).padStart(4, '0')}-${month}-${twoDigits(date.getUTCDate())}`;
}

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** '' for a valid date; toISOString's RangeError for an invalid one. */
function checkDate(date: Date): '' {
  if (Number.isNaN(date.getTime())) date.toISOString();
  return '';
}

/** A "name" column keeps its case and spaces; it is only made safe, then sanitised again. */
function slugOrName(name: string): string {
  return sanitizeComponent(name, '', SLUG_MAX_BYTES * 2);
}

function renderComponent(
  tokens: readonly TemplateToken[],
  values: Record<TemplateVariable, string>,
): string {
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'text') {
      // an empty variable just before takes this text's leading separator with it
      const previous = tokens[i - 1];
      const afterEmpty = previous?.kind === 'variable' && values[previous.name] === '';
      out += afterEmpty && out === '' ? token.text.replace(/^[-_ .]/, '') : token.text;
    } else if (token.kind === 'variable') {
      const value = values[token.name];
      // "{index}-{slug}-{seed}" without a seed: drop the "-" before it
      if (value === '') out = out.replace(/[-_ ]$/, '');
      // a value is one name: it can never add a folder (test first: most have no slash)
      else out += /[/\\]/.test(value) ? value.replace(/[/\\]/g, '_') : value;
    }
  }
  return out;
}
