import { modelFor, type GatewayState, type RequestContext, type Route } from '../context.ts';
import { badRequest, readJsonObject } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import { deliverImages } from '../images/deliver.ts';
import { editProtocolError, readMultipart, resolveImageUrl } from '../images/inputs.ts';
import { inspectPicture } from '../images/picture-info.ts';
import { checkEditFiles } from '../images/edit-checks.ts';
import { receivedFile, receivedMask, type ReceivedEdit } from '../images/received-edits.ts';
import { imageServices, type ImageServices } from '../images/services.ts';
import { sizeForSource } from '../images/sizes.ts';
import { parseMultipartEdit, parseQwenEdit, type EditRequest } from '../images/validate-edits.ts';
import {
  parseAdvanced,
  parseOpenAiGeneration,
  parseQwenGeneration,
  rejectClosedAdvancedFields,
} from '../images/validate-generations.ts';

const GENERATIONS = '/v1/images/generations';
const EDITS = '/v1/images/edits';

/** The image endpoints: generations (OpenAI or Qwen body), the advanced entry, and edits. */
export function imageRoutes(state: GatewayState): Route[] {
  const services = imageServices(state);
  const advanced = `/v1/${state.options.advancedSegment}/images/advanced`;
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/images\/generations$/,
      auth: true,
      faults: 'work',
      handler: (ctx) => generations(ctx, services, advanced),
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${advanced.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      auth: true,
      faults: 'work',
      handler: (ctx) => advancedEntry(ctx, services, advanced),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/images\/edits$/,
      auth: true,
      faults: 'work',
      handler: (ctx) => edits(ctx, services),
    },
  ];
}

async function generations(ctx: RequestContext, services: ImageServices, advancedPath: string) {
  const body = await readJsonObject(ctx.req);
  const model = modelFor(ctx, body.model, 'image');
  if (model.generations === null) {
    const instead = model.advanced
      ? `use ${advancedPath}`
      : model.edits
        ? `it only edits images, through ${EDITS}`
        : 'pick another model';
    throw badRequest(
      'unsupported_endpoint',
      `Model "${model.id}" is not offered on ${GENERATIONS}; ${instead}.`,
      'model',
    );
  }
  const request =
    model.generations === 'qwen'
      ? parseQwenGeneration(body, model)
      : parseOpenAiGeneration(body, model);
  await deliverImages(ctx, services, {
    model,
    endpoint: GENERATIONS,
    request,
    source: null,
    mask: null,
  });
}

async function advancedEntry(ctx: RequestContext, services: ImageServices, path: string) {
  const body = await readJsonObject(ctx.req);
  // Closed fields are refused before the model is even looked up: nothing is billed.
  rejectClosedAdvancedFields(body);
  const model = modelFor(ctx, body.model, 'image');
  if (!model.advanced) {
    throw badRequest(
      'unsupported_endpoint',
      `Model "${model.id}" is not offered on ${path}; use ${model.generations ? GENERATIONS : EDITS}.`,
      'model',
    );
  }
  const request = parseAdvanced(body, model, path);
  await deliverImages(ctx, services, { model, endpoint: path, request, source: null, mask: null });
}

async function edits(ctx: RequestContext, services: ImageServices) {
  const type = (ctx.req.headers['content-type'] ?? '').toLowerCase();
  const editors = [...ctx.state.models.values()]
    .filter((m): m is ImageModelSpec => m.kind === 'image' && m.edits !== null)
    .map((m) => m.id);

  let model: ImageModelSpec;
  let request: EditRequest;
  let image: Buffer;
  let mask: Buffer | null = null;
  let received: Pick<ReceivedEdit, 'body' | 'imageField' | 'fields'>;
  if (type.startsWith('multipart/form-data')) {
    const form = await readMultipart(ctx);
    model = modelFor(ctx, form.get('model') ?? undefined, 'image');
    if (model.edits !== 'multipart') throw editProtocolError(model.id, model.edits, editors);
    const parsed = parseMultipartEdit(form, model, ctx.state.options.editImageField);
    request = parsed.request;
    image = Buffer.from(await parsed.image.arrayBuffer());
    if (parsed.mask) mask = Buffer.from(await parsed.mask.arrayBuffer());
    const fields: Record<string, string> = {};
    for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
    received = { body: 'multipart', imageField: parsed.imageField, fields };
  } else if (type.startsWith('application/json')) {
    const body = await readJsonObject(ctx.req);
    model = modelFor(ctx, body.model, 'image');
    if (model.edits !== 'qwen-json') throw editProtocolError(model.id, model.edits, editors);
    const parsed = parseQwenEdit(body, model);
    request = parsed.request;
    image = await resolveImageUrl(parsed.imageUrl, ctx, services, 'The {image} item');
    const fields: Record<string, string> = { model: model.id, prompt: request.prompt };
    for (const [name, value] of Object.entries(body.parameters ?? {})) {
      fields[`parameters.${name}`] = JSON.stringify(value);
    }
    received = { body: 'json', imageField: null, fields };
  } else {
    ctx.req.resume();
    throw badRequest(
      'invalid_content_type',
      `${EDITS} takes multipart/form-data (OpenAI-style edit models) or application/json (Qwen-style edit models); got "${type || 'no Content-Type'}".`,
    );
  }

  const picture = await inspectPicture(image, 'image');
  const maskInfo = mask ? await inspectPicture(mask, 'mask') : null;
  checkEditFiles(
    model,
    { bytes: image, info: picture },
    mask && maskInfo ? { bytes: mask, info: maskInfo } : null,
  );
  services.received.add({
    requestId: ctx.requestId,
    model: model.id,
    ...received,
    image: receivedFile(image, picture),
    mask: mask && maskInfo ? await receivedMask(mask, maskInfo) : null,
  });
  const size = request.size ?? sizeForSource(model, picture.width, picture.height);
  // Held for this request; each returned link adds its own hold until it expires.
  const source = services.sources.retain(image);
  const maskDigest = mask ? services.sources.retain(mask) : null;
  try {
    await deliverImages(ctx, services, {
      model,
      endpoint: EDITS,
      request: { ...request, size },
      source,
      mask: maskDigest,
    });
  } finally {
    services.sources.release(source);
    if (maskDigest) services.sources.release(maskDigest);
  }
}
