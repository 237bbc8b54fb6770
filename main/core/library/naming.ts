/**
 * File names in the library: `<library>/<batch>/<index>-<slug>-<seed>.<ext>` by default,
 * from a configurable template. Every name is safe on Windows, macOS and Linux, and no
 * template or value can ever point outside the library. One module per job, in naming/.
 */
export { DEFAULT_TEMPLATE, TemplateError, parseTemplate } from './naming/template.ts';
export { compileTemplate, type CompiledTemplate } from './naming/compiled-template.ts';
export { renderRelativePath, type NamingInput } from './naming/render-path.ts';
export { slugify } from './naming/slug.ts';
export { MAX_COMPONENT_BYTES, sanitizeComponent } from './naming/portable-name.ts';
export {
  batchDirName,
  EXPORTS_FOLDER,
  nameCandidates,
  pathKey,
  uniqueName,
} from './naming/unique-name.ts';
export { resolveInsideLibrary } from './naming/inside-library.ts';
export { truncateUtf8 } from './naming/utf8.ts';
