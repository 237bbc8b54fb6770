import { EMPTY_DRAFT, type ComposeDraft } from '../../compose/draft.ts';
import { escapeTemplate } from '../../compose/template.ts';
import type { ImageDetail } from '../../../data/types.ts';

export type { ImageDetail };

/**
 * Params the draft has its own fields for, or the service's defaults chose (response_format);
 * every other key goes to the extra lines.
 */
const NOT_EXTRA = new Set([
  'quality',
  'output_format',
  'negative_prompt',
  'response_format',
  'extra',
]);
/** A video's own parameters: the draft's video fields hold them. */
const VIDEO_OWN = new Set(['seconds']);

const extraLine = (key: string, value: unknown) =>
  `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;

/**
 * The Compose draft that makes this image again: its prompt (literal), model, size, seed and
 * parameters; one image (n = 1). Every field is set, so nothing of an earlier draft remains.
 */
export function rerunDraft(detail: ImageDetail): ComposeDraft {
  const params = detail.params;
  const video = detail.kind === 'video';
  const text = (key: string) => (typeof params[key] === 'string' ? params[key] : '');
  const extra =
    params.extra && typeof params.extra === 'object' && !Array.isArray(params.extra)
      ? (params.extra as Record<string, unknown>)
      : {};
  const lines = [
    // stored apart from extra by the importer (`seconds` of a video, `response_format`)
    ...Object.entries(params).filter(
      ([key]) => !NOT_EXTRA.has(key) && !(video && VIDEO_OWN.has(key)),
    ),
    ...Object.entries(extra),
  ].map(([key, value]) => extraLine(key, value));
  // a blank line would split it in two prompts as paragraphs
  const prompt = escapeTemplate(detail.prompt.replace(/\n(?:[ \t]*\n)+/g, '\n'));
  // a multi-line prompt stays one prompt as a paragraph
  const split = prompt.includes('\n') ? 'paragraph' : 'line';
  if (video) {
    return {
      ...EMPTY_DRAFT,
      mode: 'video',
      text: prompt,
      split,
      videoModels: [detail.model],
      videoSizes: detail.size ?? '',
      seconds: text('seconds'),
    };
  }
  return {
    ...EMPTY_DRAFT,
    text: prompt,
    split,
    variables: {},
    models: [detail.model],
    sizes: detail.size ?? '',
    seeds: detail.seed === null ? '' : String(detail.seed),
    ns: '1',
    combine: 'multiply',
    quality: text('quality'),
    outputFormat: text('output_format'),
    negativePrompt: detail.negativePrompt ?? text('negative_prompt'),
    extra: lines.join('\n'),
    // no model's own values from an earlier draft: the image's own are the ones sent
    perModel: {},
    file: null,
  };
}

/** "Copy parameters": what makes the image, as JSON. */
export function parametersJson(detail: ImageDetail): string {
  return JSON.stringify(
    { model: detail.model, size: detail.size, seed: detail.seed, ...detail.params },
    null,
    2,
  );
}
