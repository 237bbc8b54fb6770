import nodePath from 'node:path';

/**
 * File names in the library: `<library>/<batch>/<index>-<slug>-<seed>.<ext>` by default,
 * from a configurable template. Every name is safe on Windows, macOS and Linux, and no
 * template or value can ever point outside the library.
 */
export const DEFAULT_TEMPLATE = '{batch}/{index}-{slug}-{seed}.{ext}';

/** The template's variables, for the settings screen and the CLI's help. */
export const TEMPLATE_VARIABLES = {
  batch: "the batch's folder name (chosen once when the batch is created)",
  index: "the prompt's row in the batch, zero-padded (0001)",
  image:
    'the image number within the prompt (1, 2…); added as _N when a prompt makes several images and the template has no {image}',
  slug: 'the start of the prompt, lower-case words joined by -',
  name: 'the row\'s "name" column, or the slug when it has none',
  seed: 'the seed, or nothing (the separator before it is dropped too)',
  model: 'the model name',
  size: 'the size, as WxH',
  job: "the job's number in the database",
  date: 'the batch creation date, YYYY-MM-DD (UTC)',
  ext: 'the file extension from the image format: png, jpg, webp; the template must end with .{ext}',
} as const;

export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

export type TemplateToken =
  | { kind: 'text'; text: string }
  | { kind: 'variable'; name: TemplateVariable }
  | { kind: 'separator' };

/** One path component, in UTF-8 bytes: below every common filesystem's 255. */
export const MAX_COMPONENT_BYTES = 200;
const SLUG_MAX_BYTES = 48;
const BATCH_DIR_MAX_BYTES = 80;
// room kept in a file name for a collision suffix (~9999)
const SUFFIX_ROOM_BYTES = 6;

export class TemplateError extends Error {
  constructor(template: string, problem: string) {
    super(
      `The file name template "${template}" ${problem} Example: "${DEFAULT_TEMPLATE}". ` +
        `Variables: ${Object.keys(TEMPLATE_VARIABLES)
          .map((name) => `{${name}}`)
          .join(' ')}.`,
    );
    this.name = 'TemplateError';
  }
}

/** Parses and checks a template once; render it many times with renderRelativePath. */
export function parseTemplate(template: string): TemplateToken[] {
  if (template.trim() === '') throw new TemplateError(template, 'is empty.');
  if (/^[/\\]|^[A-Za-z]:/.test(template)) {
    throw new TemplateError(template, 'is absolute: it must be relative to the library.');
  }
  if (template.includes('\\')) {
    throw new TemplateError(template, 'contains "\\": separate folders with "/".');
  }
  if (!template.endsWith('.{ext}')) {
    throw new TemplateError(template, 'must end with ".{ext}" so files get their real type.');
  }
  const tokens: TemplateToken[] = [];
  for (const part of template.split(/(\{[^{}]*\}|\/)/)) {
    if (part === '') continue;
    if (part === '/') tokens.push({ kind: 'separator' });
    else if (part.startsWith('{') && part.endsWith('}')) {
      const name = part.slice(1, -1);
      if (!(name in TEMPLATE_VARIABLES)) {
        throw new TemplateError(template, `uses an unknown variable {${name}}.`);
      }
      tokens.push({ kind: 'variable', name: name as TemplateVariable });
    } else if (/[{}]/.test(part)) {
      throw new TemplateError(template, `has an unmatched brace in "${part}".`);
    } else tokens.push({ kind: 'text', text: part });
  }
  // each folder level must name something: no "//", no "." or ".." folders
  const components = splitComponents(tokens);
  for (const component of components) {
    if (component.length === 0) throw new TemplateError(template, 'has an empty folder ("//").');
    const literal = component.every((token) => token.kind === 'text');
    const text = component.map((token) => (token.kind === 'text' ? token.text : '')).join('');
    if (literal && /^\.+$/.test(text.trim())) {
      throw new TemplateError(template, `has a "${text}" folder: names cannot leave the library.`);
    }
  }
  if (components.length > 8) throw new TemplateError(template, 'nests more than 8 folders.');
  // The batch's folder holds its manifest and is where a crash's leftovers are swept from.
  const [first] = components;
  if (components.length < 2 || first!.length !== 1 || !isVariable(first![0]!, 'batch')) {
    throw new TemplateError(
      template,
      'must start with "{batch}/": each batch keeps its images and manifest in its own folder.',
    );
  }
  return tokens;
}

function isVariable(token: TemplateToken, name: TemplateVariable): boolean {
  return token.kind === 'variable' && token.name === name;
}

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

/** The image's path relative to the library, with "/" between folders. */
export function renderRelativePath(template: string | TemplateToken[], input: NamingInput): string {
  const compiled = typeof template === 'string' ? compileText(template) : compileTokens(template);
  const values = variableValues(input, compiled);
  let path = '';
  for (const folder of compiled.folders) {
    path += `${sanitizeComponent(renderComponent(folder, values), 'folder')}/`;
  }
  // the file: render the stem apart so truncation never eats the extension
  let stem = renderComponent(compiled.stem, values);
  if (input.imageCount > 1 && !compiled.hasImage) stem = `${stem}_${values.image}`;
  const ext = values.ext;
  // extensionFor's ext is ASCII: its length is its UTF-8 length
  const stemMax = MAX_COMPONENT_BYTES - ext.length - 1 - SUFFIX_ROOM_BYTES;
  return `${path}${sanitizeComponent(stem, 'image', stemMax)}.${ext}`;
}

/**
 * What rendering needs from a template, worked out once instead of once per image (the engine
 * renders thousands of names a second from one parsed template).
 */
interface CompiledTemplate {
  /** A copy of the tokens it was compiled from: a token array changed since is compiled again. */
  tokens: TemplateToken[];
  folders: TemplateToken[][];
  /** The file component without its ".{ext}". */
  stem: TemplateToken[];
  hasImage: boolean;
  usesSlug: boolean;
  usesName: boolean;
}

const compiledTokens = new WeakMap<TemplateToken[], CompiledTemplate>();
const compiledTexts = new Map<string, CompiledTemplate>();

function compileTokens(tokens: TemplateToken[]): CompiledTemplate {
  const cached = compiledTokens.get(tokens);
  if (cached && sameTokens(cached.tokens, tokens)) return cached;
  const compiled = compile(tokens);
  compiledTokens.set(tokens, compiled);
  return compiled;
}

function compileText(template: string): CompiledTemplate {
  let compiled = compiledTexts.get(template);
  if (!compiled) {
    // parse errors are not cached: a bad template throws each time, as parseTemplate does
    compiled = compile(parseTemplate(template));
    if (compiledTexts.size >= 32) compiledTexts.clear();
    compiledTexts.set(template, compiled);
  }
  return compiled;
}

function compile(tokens: TemplateToken[]): CompiledTemplate {
  const components = splitComponents(tokens);
  const uses = (name: TemplateVariable) =>
    tokens.some((token) => token.kind === 'variable' && token.name === name);
  return {
    tokens: tokens.map((token) => ({ ...token })),
    folders: components.slice(0, -1),
    stem: withoutExtension(components.at(-1)!),
    hasImage: uses('image'),
    usesSlug: uses('slug'),
    usesName: uses('name'),
  };
}

function sameTokens(a: TemplateToken[], b: TemplateToken[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind !== y.kind) return false;
    if (x.kind === 'variable' && x.name !== (y as typeof x).name) return false;
    if (x.kind === 'text' && x.text !== (y as typeof x).text) return false;
  }
  return true;
}

/** A prompt's start as a file-name-friendly slug; letters of every script are kept. */
export function slugify(text: string, maxBytes = SLUG_MAX_BYTES): string {
  // only the start can show; skip normalising a 10 KB prompt whole
  const head = text.slice(0, maxBytes * 4);
  const slug = NON_ASCII.test(head)
    ? head
        .normalize('NFC')
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
        .replace(/^-+/, '')
    : asciiSlug(head.toLowerCase(), maxBytes);
  const cut = truncateUtf8(slug, maxBytes);
  return cut.endsWith('-') ? cut.replace(/-+$/, '') : cut;
}

/**
 * The slug of lower-case ASCII (most prompts), as the Unicode regexes above would make it: NFC
 * changes nothing and the only letters and digits are a-z and 0-9. A loop, twice as fast, that
 * stops once more than maxBytes are written: truncateUtf8 cuts the rest anyway.
 */
function asciiSlug(text: string, maxBytes: number): string {
  let slug = '';
  let word = -1; // where the current run of letters and digits started
  for (let i = 0; i < text.length && !(slug.length > maxBytes); i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) {
      if (word < 0) word = i;
    } else if (word >= 0) {
      slug += `${text.slice(word, i)}-`;
      word = -1;
    }
  }
  return word >= 0 ? slug + text.slice(word) : slug;
}

// any UTF-16 code unit above ASCII (no u flag: surrogates count one by one)
const NON_ASCII = /[\u0080-\uffff]/;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;
// control characters and the characters Windows forbids in names (also "/" everywhere)
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]/g;
// direction overrides and invisible marks: they can disguise a name ("gnp.exe")
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// what sanitizing could change in a name: anything but printable ASCII (NFC, invisible marks,
// control characters), a forbidden character, a run of spaces, a dot or space at either end
const NEEDS_SANITIZING = /[^\u0020-\u007e]|[<>:"/\\|?*]| {2}|^[ .]|[ .]$/;

/**
 * One path component made safe on Windows, macOS and Linux: NFC, no forbidden or control
 * characters, no leading or trailing dots and spaces, not a reserved device name, at most
 * `maxBytes` of UTF-8, never empty.
 */
export function sanitizeComponent(
  value: string,
  fallback = 'untitled',
  maxBytes = MAX_COMPONENT_BYTES,
): string {
  let name = value;
  // most names are already safe: one regex test instead of the whole pipeline (ASCII is one
  // byte a character, so the length is the UTF-8 size)
  if (name === '' || !(name.length <= maxBytes) || NEEDS_SANITIZING.test(name)) {
    name = value
      .normalize('NFC')
      .replace(INVISIBLE, '')
      .replace(/\s+/gu, ' ')
      .replace(FORBIDDEN, '_');
    name = trimEnds(truncateUtf8(trimEnds(name), maxBytes));
    if (name === '') name = fallback;
  }
  // CON, con.png, Com1.tar.gz: Windows reserves the device name whatever follows the dot
  const dot = name.indexOf('.');
  const base = dot < 0 ? name : name.slice(0, dot);
  if (WINDOWS_RESERVED.test(base.trim())) name = truncateUtf8(`_${name}`, maxBytes);
  return name;
}

/** A folder name for a new batch, unique (see uniqueName) among the library's batches. */
export function batchDirName(batchName: string, isTaken: (candidate: string) => boolean): string {
  return uniqueName(sanitizeComponent(batchName, 'batch', BATCH_DIR_MAX_BYTES), isTaken);
}

/**
 * The key two paths collide on: Windows and macOS compare names case-insensitively and
 * macOS also across Unicode normal forms. Store and compare this, not the path.
 */
export function pathKey(relPath: string): string {
  // ASCII is its own NFC: the normalization (an ICU call, twice per image) is skipped
  return (NON_ASCII.test(relPath) ? relPath.normalize('NFC') : relPath).toLowerCase();
}

/** relPath, then relPath with ~2, ~3… before the extension. */
export function* nameCandidates(relPath: string): Generator<string> {
  yield relPath;
  const slash = relPath.lastIndexOf('/');
  const dir = relPath.slice(0, slash + 1);
  const file = relPath.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const ext = dot > 0 ? file.slice(dot) : '';
  for (let n = 2; n < 100_000; n++) {
    const suffix = `~${n}`;
    const room = MAX_COMPONENT_BYTES - utf8Length(ext) - suffix.length;
    yield `${dir}${trimEnds(truncateUtf8(stem, room))}${suffix}${ext}`;
  }
}

/**
 * The first candidate not taken. `isTaken` should compare pathKey()s; to reserve a name
 * atomically among concurrent writers, iterate nameCandidates against the store instead.
 */
export function uniqueName(relPath: string, isTaken: (candidate: string) => boolean): string {
  for (const candidate of nameCandidates(relPath)) if (!isTaken(candidate)) return candidate;
  throw new Error(`Every name like "${relPath}" is taken: rename or move some files.`);
}

/**
 * The absolute path of a library-relative path, or an error when it would land outside the
 * library (absolute, "..", a drive or a NUL). The last check before anything is written.
 */
export function resolveInsideLibrary(
  libraryRoot: string,
  relPath: string,
  path: typeof nodePath.posix = nodePath,
): string {
  const refuse = (why: string): never => {
    throw new Error(
      `Refusing to write "${relPath}": ${why}. Files are only written inside the library ` +
        `(${libraryRoot}); check the file name template.`,
    );
  };
  if (relPath === '' || relPath.includes('\0')) refuse('the path is empty or contains NUL');
  if (path.isAbsolute(relPath) || /^[A-Za-z]:/.test(relPath)) refuse('the path is absolute');
  const root = path.resolve(libraryRoot);
  const target = path.resolve(root, relPath);
  // Both are normalized absolute paths, so "inside" is a prefix test (cheaper than
  // path.relative, which resolves both again; this runs for every image written). Stricter
  // than it on Windows: a path that leaves and re-enters the library in another case is refused.
  const inside = root.endsWith(path.sep) ? root : root + path.sep;
  if (target.length <= inside.length || !target.startsWith(inside)) {
    refuse('it points outside the library');
  }
  return target;
}

/** The variables' values; the costly slug and name only when the template uses them. */
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
  // always: an invalid date throws here whether or not the template shows it
  const date = dateText(input.date);
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

// toISOString is slow and a batch's images share its creation date: keep the last one
let lastDateTime = NaN;
let lastDateText = '';

function dateText(date: Date): string {
  const time = date.getTime();
  // NaN (an invalid date) never equals: toISOString throws its RangeError
  if (time !== lastDateTime) {
    lastDateText = date.toISOString().slice(0, 10);
    lastDateTime = time;
  }
  return lastDateText;
}

/** A "name" column keeps its case and spaces; it is only made safe, then sanitised again. */
function slugOrName(name: string): string {
  return sanitizeComponent(name, '', SLUG_MAX_BYTES * 2);
}

export function extensionFor(format: string): string {
  const ext = format.toLowerCase().replace(/^\./, '');
  if (ext === 'jpeg') return 'jpg';
  if (!/^[a-z0-9]{1,10}$/.test(ext)) {
    throw new Error(`"${format}" is not a usable file extension (expected png, jpg, webp…).`);
  }
  return ext;
}

function renderComponent(tokens: TemplateToken[], values: Record<TemplateVariable, string>) {
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

/** The file component's tokens without the final ".{ext}" (parseTemplate guarantees it). */
function withoutExtension(component: TemplateToken[]): TemplateToken[] {
  const stem = component.slice(0, -1);
  const dot = stem.at(-1);
  if (dot?.kind === 'text') {
    const text = dot.text.slice(0, -1);
    stem.splice(-1, 1, ...(text ? [{ kind: 'text' as const, text }] : []));
  }
  return stem;
}

function splitComponents(tokens: TemplateToken[]): TemplateToken[][] {
  const components: TemplateToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'separator') components.push([]);
    else components.at(-1)!.push(token);
  }
  return components;
}

function trimEnds(name: string): string {
  // most names start and end with a printable ASCII character other than ".": nothing to trim
  if (plainEnd(name.charCodeAt(0)) && plainEnd(name.charCodeAt(name.length - 1))) return name;
  return name.replace(/^[\s.]+|[\s.]+$/gu, '');
}

function plainEnd(code: number): boolean {
  return code > 0x20 && code < 0x7f && code !== 0x2e;
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** At most maxBytes of UTF-8, cut between graphemes (never inside an emoji or accent). */
export function truncateUtf8(text: string, maxBytes: number): string {
  // a UTF-16 code unit is at most 3 bytes: a short text needs no counting
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  let head = text;
  if (maxBytes >= 0) {
    // Only the first maxBytes + 1 code units can be kept (each is at least a byte). A grapheme
    // boundary depends only on the text before it and the code point after it, so segmenting
    // that head (whole code points) cuts where segmenting all of a 10 KB text would.
    const end = Math.floor(maxBytes) + 1;
    if (end < text.length) {
      const pair =
        isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end));
      head = text.slice(0, pair ? end + 1 : end);
    }
    if (!NON_ASCII.test(head)) {
      // ASCII: a byte and a grapheme a character, but for CR LF, one grapheme never split
      let cut = Math.floor(maxBytes);
      if (cut > 0 && head.charCodeAt(cut - 1) === 0x0d && head.charCodeAt(cut) === 0x0a) cut--;
      return head.slice(0, cut);
    }
  }
  let out = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(head)) {
    const size = utf8Length(segment);
    if (bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
