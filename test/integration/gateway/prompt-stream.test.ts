import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../main/core/gateway/http/errors.ts';
import { createPromptParser } from '../../../shared/prompts/prompt-lines.ts';
import { rig } from './harness.ts';

// Prompt help over real HTTP: the simulator's text models stream lists worded their own way
// (plain, chatty, thinking aloud), over chat and /v1/responses, and the shared parser makes
// the same prompts of every one; a stream that breaks off says what the gateway said.

const ASK = 'Write 6 different prompts on this theme: a harbour in winter';

async function promptsOf(stream: AsyncIterable<string>) {
  const parser = createPromptParser({ limit: 1000, targetModel: 'flux-schnell', mode: 'lines' });
  const prompts: string[] = [];
  let pieces = 0;
  for await (const piece of stream) {
    pieces++;
    prompts.push(...parser.push(piece).map((idea) => idea.text));
  }
  prompts.push(...parser.end().map((idea) => idea.text));
  return { prompts, pieces };
}

describe('prompt help streamed from the simulator', () => {
  it.each(['gpt-4o-mini', 'qwen-plus', 'deepseek-r1'])(
    '%s: six prompts on the theme, streamed in many pieces, over chat and responses alike',
    async (model) => {
      const { client } = await rig();
      const chat = await promptsOf(
        client.chatStream({ model, messages: [{ role: 'user', content: ASK }] }),
      );
      expect(chat.prompts).toHaveLength(6);
      expect(new Set(chat.prompts).size).toBe(6);
      for (const prompt of chat.prompts) expect(prompt).toMatch(/^A harbour in winter /);
      expect(chat.pieces).toBeGreaterThan(30);
      const responses = await promptsOf(client.responsesStream({ model, input: ASK }));
      expect(responses.prompts).toEqual(chat.prompts);
    },
  );

  it.each([
    [
      'chat',
      (c: Awaited<ReturnType<typeof rig>>['client']) =>
        c.chatStream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: ASK }] }),
    ],
    [
      'responses',
      (c: Awaited<ReturnType<typeof rig>>['client']) =>
        c.responsesStream({ model: 'gpt-4o-mini', input: ASK }),
    ],
  ] as const)(
    '%s: stream-error breaks off half-way with the gateway’s words, after the text before it; nothing charged',
    async (_, open) => {
      const { client, gateway } = await rig({ faults: 'stream-error@1' });
      const pieces: string[] = [];
      const error = await (async () => {
        for await (const piece of open(client)) pieces.push(piece);
      })().catch((e: unknown) => e);
      expect(pieces.length).toBeGreaterThan(3);
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).failure).toMatchObject({
        code: 'upstream_error',
        decision: 'fail',
      });
      expect((error as GatewayError).message).toContain(
        'The upstream model stopped in the middle of its answer (a simulated failure). Nothing was charged; ask again.',
      );
      await gateway.idle();
      expect(gateway.ledger.entries()).toMatchObject([{ state: 'refunded', charged: 0 }]);
    },
  );
});
