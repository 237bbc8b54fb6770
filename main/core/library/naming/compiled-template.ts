import {
  parseTemplate,
  splitComponents,
  type TemplateToken,
  type TemplateVariable,
} from './template.ts';

/**
 * What rendering needs from a template, worked out once and never changed: the engine makes
 * one when it starts and renders every image's name from it.
 */
export interface CompiledTemplate {
  readonly folders: readonly (readonly TemplateToken[])[];
  /** The file component without its ".{ext}". */
  readonly stem: readonly TemplateToken[];
  readonly usesImage: boolean;
  readonly usesSlug: boolean;
  readonly usesName: boolean;
  readonly usesDate: boolean;
}

/**
 * A template checked by parseTemplate (a TemplateError for a bad one), or tokens it returned,
 * made ready to render. The tokens are copied: changing them later changes nothing here.
 */
export function compileTemplate(template: string | readonly TemplateToken[]): CompiledTemplate {
  const tokens = typeof template === 'string' ? parseTemplate(template) : template;
  const components = splitComponents(tokens.map((token) => Object.freeze({ ...token })));
  const uses = (name: TemplateVariable) =>
    tokens.some((token) => token.kind === 'variable' && token.name === name);
  return Object.freeze({
    folders: Object.freeze(components.slice(0, -1).map((folder) => Object.freeze(folder))),
    stem: Object.freeze(withoutExtension(components.at(-1)!)),
    usesImage: uses('image'),
    usesSlug: uses('slug'),
    usesName: uses('name'),
    usesDate: uses('date'),
  });
}

/** The file component's tokens without the final ".{ext}" (parseTemplate guarantees it). */
function withoutExtension(component: TemplateToken[]): TemplateToken[] {
  const stem = component.slice(0, -1);
  const dot = stem.at(-1);
  if (dot?.kind === 'text') {
    const text = dot.text.slice(0, -1);
    stem.splice(-1, 1, ...(text ? [Object.freeze({ kind: 'text' as const, text })] : []));
  }
  return stem;
}
