import type {
  Catalogue,
  ImageModelEntry,
  ModelEntry,
} from '../../../../shared/gateway/catalogue.ts';
import {
  editImages,
  type EditRequest,
  type ImageRequest,
} from '../../../../shared/gateway/requests.ts';
import { sentAdvanced } from '../../../../shared/gateway/params.ts';
import type { ImageBody } from './body-fields.ts';
import { imageRequestProblems } from './validate.ts';

export type ImageEndpoint = 'generations' | 'advanced' | 'edits';

export type ImagePlan =
  | { ok: true; entry: ImageModelEntry; endpoint: ImageEndpoint; body: ImageBody }
  | { ok: false; problems: string[] };

function imageEntry(entry: ModelEntry): ImageModelEntry | string {
  if (entry.kind === 'image') return entry;
  return `${entry.id} is a ${entry.kind} model; choose an image model to make images.`;
}

/**
 * Which endpoint and body a generation uses, by the catalogue. The generations endpoint is
 * the stable main path (interface 4 rule 1); a seed sends a model that is also offered on the
 * advanced entry there, because only the advanced entry carries a seed for OpenAI-style models.
 */
export function planGeneration(request: ImageRequest, catalogue: Catalogue): ImagePlan {
  const entry = imageEntry(catalogue.lookup(request.model));
  if (typeof entry === 'string') return { ok: false, problems: [entry] };
  switch (entry.protocol) {
    case 'none':
      return {
        ok: false,
        problems: [
          `${entry.id} only edits images: give it a picture to edit, or choose a generation model.`,
        ],
      };
    case 'advanced':
      return check(request, entry, 'advanced', 'advanced');
    case 'qwen':
      return check(request, entry, 'generations', 'qwen');
    case 'openai':
      return sentAdvanced(entry, request.seed !== undefined)
        ? check(request, entry, 'advanced', 'advanced')
        : check(request, entry, 'generations', 'openai');
  }
}

/** The advanced entry, asked for explicitly. */
export function planAdvanced(request: ImageRequest, catalogue: Catalogue): ImagePlan {
  const entry = imageEntry(catalogue.lookup(request.model));
  if (typeof entry === 'string') return { ok: false, problems: [entry] };
  if (entry.protocol !== 'advanced' && !entry.advanced) {
    return {
      ok: false,
      problems: [`${entry.id} is not offered on the advanced entry; use ordinary generation.`],
    };
  }
  return check(request, entry, 'advanced', 'advanced');
}

export function planEdit(request: EditRequest, catalogue: Catalogue): ImagePlan {
  const entry = imageEntry(catalogue.lookup(request.model));
  if (typeof entry === 'string') return { ok: false, problems: [entry] };
  if (entry.edit === 'none') {
    return {
      ok: false,
      problems: [`${entry.id} cannot edit images; choose a model that supports editing.`],
    };
  }
  const problems = imageRequestProblems(request, entry, entry.edit);
  const images = editImages(request);
  if (images.length === 0) problems.push('Give the picture to edit.');
  if (entry.edit === 'multipart') {
    if (images.some((image) => !('bytes' in image))) {
      problems.push(`${entry.id} edits an uploaded file: give the picture itself, not a link.`);
    }
    if (request.mask && !('bytes' in request.mask)) {
      problems.push('The mask must be a file, not a link.');
    }
  } else if (request.mask) {
    problems.push(`${entry.id} takes no mask; describe the change in the prompt instead.`);
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, entry, endpoint: 'edits', body: entry.edit };
}

function check(
  request: ImageRequest,
  entry: ImageModelEntry,
  endpoint: ImageEndpoint,
  body: ImageBody,
): ImagePlan {
  const problems = imageRequestProblems(request, entry, body);
  return problems.length ? { ok: false, problems } : { ok: true, entry, endpoint, body };
}
