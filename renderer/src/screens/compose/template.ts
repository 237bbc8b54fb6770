import { splitPrompts, type SplitMode } from './split-prompts.ts';

/**
 * Prompt templates: `{red|blue}` is a wildcard list (every option, each a prompt), `{subject}`
 * a named variable filled from a list the person types; `\{`, `\}`, `\|` and `\\` are literal.
 */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'choice'; options: string[] }
  | { kind: 'variable'; name: string; offset: number };

/** Where a template is wrong: an offset into the prompt (0-based) and what to do. */
export interface TemplateProblem {
  offset: number;
  message: string;
}

/** A problem placed in the composer's text: 1-based line and column. */
export interface TemplateError {
  line: number;
  column: number;
  message: string;
}

export type Variables = Readonly<Record<string, readonly string[]>>;

/** `{`, `}`, `|` and `\` are template syntax in Compose: escaped, a prompt stays literal. */
export function escapeTemplate(prompt: string): string {
  return prompt.replace(/[\\{}|]/g, (ch) => `\\${ch}`);
}

const NAME = /^[A-Za-z_][\w-]*$/;

/** Reads one prompt's template; the first problem stops it. */
export function parseTemplate(
  text: string,
): { segments: Segment[] } | { problem: TemplateProblem } {
  const segments: Segment[] = [];
  let literal = '';
  let i = 0;
  const pushText = () => {
    if (literal) segments.push({ kind: 'text', text: literal });
    literal = '';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && '{}|\\'.includes(text[i + 1]!)) {
      literal += text[i + 1];
      i += 2;
    } else if (ch === '}') {
      return problem(i, 'a closing brace } without an opening one; write \\} for a literal brace');
    } else if (ch === '{') {
      const group = readGroup(text, i);
      if ('problem' in group) return group;
      pushText();
      segments.push(group.segment);
      i = group.end;
    } else {
      literal += ch;
      i++;
    }
  }
  pushText();
  return { segments };
}

function readGroup(
  text: string,
  start: number,
): { segment: Segment; end: number } | { problem: TemplateProblem } {
  const options: string[] = [];
  let current = '';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && '{}|\\'.includes(text[i + 1]!)) {
      current += text[++i];
    } else if (ch === '{') {
      return problem(i, 'a brace inside braces: lists cannot be nested; write \\{ for a literal');
    } else if (ch === '|') {
      options.push(current.trim());
      current = '';
    } else if (ch === '}') {
      options.push(current.trim());
      const end = i + 1;
      if (options.length > 1) return { segment: { kind: 'choice', options }, end };
      const name = options[0]!;
      if (NAME.test(name)) return { segment: { kind: 'variable', name, offset: start }, end };
      return problem(
        start,
        `{${name}} is neither a list ({a|b}) nor a variable name (letters, digits, _ and -)`,
      );
    } else {
      current += ch;
    }
  }
  return problem(start, 'this brace { is never closed: add } or write \\{ for a literal brace');
}

const problem = (offset: number, message: string) => ({ problem: { offset, message } });

/** The variable names a template uses, in order of first use. */
export function variablesOf(segments: readonly Segment[]): string[] {
  const names: string[] = [];
  for (const s of segments)
    if (s.kind === 'variable' && !names.includes(s.name)) names.push(s.name);
  return names;
}

/** The dimensions a template multiplies over: each list, and each distinct variable once. */
function dimensionsOf(segments: readonly Segment[], vars: Variables): readonly string[][] {
  const dims: string[][] = [];
  for (const s of segments) {
    if (s.kind === 'choice') dims.push(s.options);
    else if (
      s.kind === 'variable' &&
      !variablesOf(segments.slice(0, segments.indexOf(s))).includes(s.name)
    ) {
      dims.push([...(vars[s.name] ?? [])]);
    }
  }
  return dims;
}

/** A variable with no values, or none at all, by its place in the template. */
export function variableProblem(
  segments: readonly Segment[],
  vars: Variables,
): TemplateProblem | null {
  for (const s of segments) {
    if (s.kind !== 'variable') continue;
    const values = vars[s.name];
    if (values === undefined) return { offset: s.offset, message: `unknown variable {${s.name}}` };
    if (values.length === 0) {
      return { offset: s.offset, message: `{${s.name}} has no values: type them, one per line` };
    }
  }
  return null;
}

/** How many prompts a template makes, without making them. */
export function countTemplate(segments: readonly Segment[], vars: Variables): number {
  return dimensionsOf(segments, vars).reduce((n, dim) => n * dim.length, 1);
}

/** Every prompt a template makes, the last list varying fastest. */
export function expandTemplate(segments: readonly Segment[], vars: Variables): string[] {
  const dims = dimensionsOf(segments, vars);
  const total = dims.reduce((n, dim) => n * dim.length, 1);
  const prompts: string[] = [];
  const pick = new Array<number>(dims.length).fill(0);
  for (let k = 0; k < total; k++) {
    let rest = k;
    for (let d = dims.length - 1; d >= 0; d--) {
      pick[d] = rest % dims[d]!.length;
      rest = Math.floor(rest / dims[d]!.length);
    }
    const chosen = new Map<string, string>();
    let dim = 0;
    let out = '';
    for (const s of segments) {
      if (s.kind === 'text') out += s.text;
      else if (s.kind === 'choice') out += s.options[pick[dim++]!];
      else {
        if (!chosen.has(s.name)) chosen.set(s.name, vars[s.name]![pick[dim++]!]!);
        out += chosen.get(s.name);
      }
    }
    prompts.push(out.replace(/[ \t]{2,}/g, ' ').trim());
  }
  return prompts;
}

export interface ExpandedPrompts {
  prompts: string[];
  /** Every variable the prompts use, in order of first use (for their value fields). */
  variables: string[];
  errors: TemplateError[];
  /** Prompts the text would make, counted even past the limit. */
  count: number;
}

/**
 * The composer's text to prompts: split (by line or paragraph), each part a template. Errors
 * carry the line and column in the text; past `limit` prompts nothing is expanded.
 */
export function expandPrompts(
  text: string,
  mode: SplitMode,
  vars: Variables,
  limit: number,
): ExpandedPrompts {
  const variables: string[] = [];
  const errors: TemplateError[] = [];
  const parsed: Segment[][] = [];
  let count = 0;
  for (const span of splitPrompts(text, mode)) {
    const result = parseTemplate(span.text);
    const where = (offset: number) => placeOf(span, offset);
    if ('problem' in result) {
      errors.push({ ...where(result.problem.offset), message: result.problem.message });
      continue;
    }
    for (const name of variablesOf(result.segments))
      if (!variables.includes(name)) variables.push(name);
    const missing = variableProblem(result.segments, vars);
    if (missing) {
      errors.push({ ...where(missing.offset), message: missing.message });
      continue;
    }
    count += countTemplate(result.segments, vars);
    parsed.push(result.segments);
  }
  if (errors.length > 0 || count > limit) return { prompts: [], variables, errors, count };
  return { prompts: parsed.flatMap((s) => expandTemplate(s, vars)), variables, errors, count };
}

/** An offset inside a (possibly multi-line) prompt to a line and column of the whole text. */
function placeOf(span: { text: string; line: number; column: number }, offset: number) {
  const before = span.text.slice(0, offset).split('\n');
  return before.length === 1
    ? { line: span.line, column: span.column + offset }
    : { line: span.line + before.length - 1, column: before[before.length - 1]!.length + 1 };
}

/** Values typed for a variable: one per line, blank lines left out. */
export function valuesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
