import { requireKey, type RequestContext } from '../context.ts';
import { ApiError, sendError, sendJson, workTimeoutError } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import { createRandom, randomHex, seedFrom } from '../random.ts';
import type { RenderSpec } from './render.ts';
import type { ImageRequest } from './request.ts';
import { imageResponseBody, partialCount, revisePrompt, type ImageItem } from './response-body.ts';
import type { ImageServices } from './services.ts';

/** A validated request, ready to bill and render. */
export interface ImageJob {
  model: ImageModelSpec;
  /** The path, as the ledger records it. */
  endpoint: string;
  request: ImageRequest;
  /** Edits: digests of the input image and mask, held by the caller until this resolves. */
  source: string | null;
  mask: string | null;
}

/**
 * Bills and answers one image request: pre-deduct n images, wait the simulated work, then
 * settle on the images returned. The work faults decide what "returned" means; whatever the
 * client did not receive is refunded (interface 1: no result, no charge).
 */
export async function deliverImages(
  ctx: RequestContext,
  services: ImageServices,
  job: ImageJob,
): Promise<void> {
  const { ledger, options, baseUrl } = ctx.state;
  const { model, request } = job;
  const price = model.pricePerImage;
  const entry = ledger.preDeduct(
    requireKey(ctx),
    ctx.requestId,
    model.id,
    job.endpoint,
    request.n * price,
  );
  try {
    const seed = request.seed ?? Math.floor(services.seeds() * 0x100000000);
    const count = returnedCount(ctx.fault, request.n);
    const mode = options.imageResponse === 'both' ? 'both' : request.responseFormat;
    const data = await Promise.all(
      Array.from({ length: count }, async (_, index): Promise<ImageItem> => {
        const spec: RenderSpec = {
          prompt: request.prompt,
          seed,
          index,
          width: request.size.width,
          height: request.size.height,
          format: request.format,
          detail: request.detail,
          watermark: request.watermark,
          source: job.source,
          mask: job.mask,
        };
        // (the seed and the image's place in the answer make the picture)
        const item: ImageItem = { seed };
        if (mode !== 'b64_json') item.url = baseUrl + createLink(services, spec);
        // (with a link too, the picture is cached for the link's download)
        if (mode !== 'url') {
          item.b64_json = (await render(services, spec, mode === 'both')).toString('base64');
        }
        if (request.revisePrompt) item.revised_prompt = revisePrompt(request.prompt, seed + index);
        return item;
      }),
    );
    // Rendering is part of the generation time the latency model stands for.
    await ctx.work(request.n);
    if (ctx.signal.aborted) return ledger.refund(entry);

    if (count === 0) ledger.refund(entry);
    else ledger.settle(entry, count * price, count);
    if (ctx.fault === '504' || ctx.fault === '524') {
      // The upstream finished and was charged; only the answer is lost (interface 7, rule 5).
      await sendError(ctx, workTimeoutError(ctx.fault));
      return;
    }
    const body = imageResponseBody({
      data,
      upstreamRequestId: upstreamId(ctx.requestId),
      partial: count > 0 && count < request.n ? { requested: request.n, returned: count } : null,
      partialKey: options.partialKey,
      placement: options.partialPlacement,
    });
    const delivered = await sendJson(ctx, 200, body);
    if (!delivered) ledger.refund(entry);
  } catch (error) {
    ledger.refund(entry);
    throw error;
  }
}

function returnedCount(fault: RequestContext['fault'], n: number): number {
  if (fault === 'empty') return 0;
  if (fault === 'partial' && n > 1) return partialCount(n);
  return n;
}

/** A link holds the edit inputs it will re-render from until it expires. */
function createLink(services: ImageServices, spec: RenderSpec): string {
  if (spec.source) services.sources.share(spec.source);
  if (spec.mask) services.sources.share(spec.mask);
  return services.links.create(spec);
}

async function render(services: ImageServices, spec: RenderSpec, linked: boolean): Promise<Buffer> {
  try {
    return await (linked ? services.render(spec) : services.renderOnce(spec));
  } catch (error) {
    throw new ApiError(
      500,
      'server_error',
      'render_failed',
      `The image could not be rendered (${(error as Error).message}). Try again.`,
    );
  }
}

/** The id the "upstream" gave this call: stable per request id, distinct from it. */
function upstreamId(requestId: string): string {
  return `up_${randomHex(createRandom(seedFrom('upstream', requestId)), 24)}`;
}
