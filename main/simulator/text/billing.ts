import { requireKey, type RequestContext } from '../context.ts';
import { workTimeoutError } from '../http.ts';
import type { TextModelSpec } from '../models.ts';
import type { TextReply } from './model.ts';
import { countTokens } from './tokens.ts';

/** Completion tokens reserved at pre-deduction when the request sets no limit. */
export const DEFAULT_COMPLETION_ESTIMATE = 256;

export interface TextUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export function usageOf(promptTokens: number, reply: TextReply): TextUsage {
  const completionTokens = countTokens(reply.text);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/**
 * Runs one billed text call: pre-deduct an estimate, do the work, then deliver. Tokens are
 * charged only when the answer was delivered — or, for 504/524, when the work finished but the
 * gateway gave up waiting. A client that left or a connection cut mid-body is refunded.
 */
export async function billedTextCall(
  ctx: RequestContext,
  spec: TextModelSpec,
  endpoint: string,
  usage: TextUsage,
  maxTokens: number | null,
  deliver: () => Promise<boolean>,
): Promise<void> {
  const { ledger } = ctx.state;
  const estimate =
    (usage.promptTokens + (maxTokens ?? DEFAULT_COMPLETION_ESTIMATE)) * spec.pricePerToken;
  const entry = ledger.preDeduct(requireKey(ctx), ctx.requestId, spec.id, endpoint, estimate);
  await ctx.work(0);
  if (ctx.signal.aborted) {
    ledger.refund(entry);
    return;
  }
  const amount = usage.totalTokens * spec.pricePerToken;
  if (ctx.fault === '504' || ctx.fault === '524') {
    ledger.settle(entry, amount, usage.totalTokens);
    throw workTimeoutError(ctx.fault);
  }
  const delivered = await deliver();
  if (delivered) ledger.settle(entry, amount, usage.totalTokens);
  else ledger.refund(entry);
}
