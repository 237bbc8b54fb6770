/** The default layout: `<library>/<batch>/<index>-<slug>-<seed>.<ext>`. */
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

/**
 * Splits a template into tokens, refusing (TemplateError) one that could name a file outside
 * its batch's folder or without its real extension. compileTemplate makes the result renderable.
 */
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

/** The tokens of each path component (folders, then the file), without the separators. */
export function splitComponents(tokens: readonly TemplateToken[]): TemplateToken[][] {
  const components: TemplateToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'separator') components.push([]);
    else components.at(-1)!.push(token);
  }
  return components;
}
