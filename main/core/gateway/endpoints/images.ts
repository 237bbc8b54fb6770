import {
  editImages,
  type EditRequest,
  type ImageRequest,
} from '../../../../shared/gateway/requests.ts';
import type { ImageResult, Outcome } from '../../../../shared/gateway/outcome.ts';
import {
  advancedBody,
  editForm,
  imageUrlOf,
  openAiBody,
  qwenBody,
  qwenEditBody,
} from '../build/bodies.ts';
import { planAdvanced, planEdit, planGeneration, type ImagePlan } from '../build/plan.ts';
import type { GatewayContext } from '../context.ts';
import { callJson, type BodyReading, type KeyScrubber } from '../http/call-json.ts';
import type { CallOptions, ExchangeSpec } from '../http/exchange.ts';
import { readImageResponse } from '../read/image-response.ts';
import { refuse } from './refuse.ts';

/**
 * Text to image on the stable main path, POST /v1/images/generations, with the body the
 * catalogue names for the model (OpenAI or Qwen-style); models that only live on the advanced
 * entry go there.
 */
export function generateImage(
  context: GatewayContext,
  request: ImageRequest,
  options: CallOptions = {},
): Promise<Outcome<ImageResult>> {
  return send(context, request, planGeneration(request, context.catalogue), options);
}

/** POST /v1/{svc}/images/advanced: seed, vendor `extra`, named sizes and ratios. */
export function generateAdvanced(
  context: GatewayContext,
  request: ImageRequest,
  options: CallOptions = {},
): Promise<Outcome<ImageResult>> {
  return send(context, request, planAdvanced(request, context.catalogue), options);
}

/** POST /v1/images/edits, multipart or Qwen-style JSON as the model's edit protocol says. */
export function editImage(
  context: GatewayContext,
  request: EditRequest,
  options: CallOptions = {},
): Promise<Outcome<ImageResult>> {
  return send(context, request, planEdit(request, context.catalogue), options);
}

function specFor(
  context: GatewayContext,
  request: ImageRequest | EditRequest,
  plan: Extract<ImagePlan, { ok: true }>,
): ExchangeSpec {
  switch (plan.body) {
    case 'openai':
      return { method: 'POST', path: '/images/generations', json: openAiBody(request) };
    case 'qwen':
      return { method: 'POST', path: '/images/generations', json: qwenBody(request) };
    case 'advanced':
      return {
        method: 'POST',
        path: `/${context.profile.advancedSegment}/images/advanced`,
        json: advancedBody(request),
      };
    case 'multipart':
      return {
        method: 'POST',
        path: '/images/edits',
        form: editForm(request as EditRequest, context.profile.multipartImageField),
      };
    case 'qwen-json': {
      const edit = request as EditRequest;
      return {
        method: 'POST',
        path: '/images/edits',
        json: qwenEditBody(edit, editImages(edit).map(imageUrlOf)),
      };
    }
  }
}

async function send(
  context: GatewayContext,
  request: ImageRequest | EditRequest,
  plan: ImagePlan,
  options: CallOptions,
): Promise<Outcome<ImageResult>> {
  if (!plan.ok) return refuse(context, `image request for ${request.model}`, plan.problems);
  const spec = specFor(context, request, plan);
  return callJson(context, spec, options, (body, scrub) =>
    readImages(body, context, request.n, scrub),
  );
}

function readImages(
  body: unknown,
  context: GatewayContext,
  requestedN: number | undefined,
  scrub: KeyScrubber,
): BodyReading<ImageResult> {
  const reading = readImageResponse(body, { partialKey: context.profile.partialKey, requestedN });
  if (reading.ok) return { ok: true, value: withoutKey(reading.result, scrub) };
  if (reading.problem === 'empty') return { kind: 'empty-data' };
  // Some gateways answer 200 with only an error object: classify it as the error it is.
  if (typeof body === 'object' && body !== null && 'error' in body) {
    return { kind: 'http', status: 200, body };
  }
  return { kind: 'bad-body', status: 200, detail: reading.detail };
}

/**
 * What is stored and written from a result never holds the key, however the gateway echoed
 * it: links are sealed (the download puts the key back), revised prompts are redacted.
 */
function withoutKey(result: ImageResult, scrub: KeyScrubber): ImageResult {
  return {
    ...result,
    images: result.images.map((image) => ({
      ...image,
      url: image.url === null ? null : scrub.sealUrl(image.url),
      revisedPrompt: image.revisedPrompt === null ? null : scrub.cleanText(image.revisedPrompt),
    })),
  };
}
