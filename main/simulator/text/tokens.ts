/**
 * The simulator's tokenizer: one token per word together with the whitespace before it.
 * Pieces join back to the exact text, so streamed deltas and usage counts always agree.
 */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

export function countTokens(text: string): number {
  return splitTokens(text).length;
}

/** Tokens a chat-style message costs beyond its content (role and framing), as real models bill. */
export const MESSAGE_OVERHEAD_TOKENS = 3;

export function countPromptTokens(messages: ReadonlyArray<{ content: string }>): number {
  return messages.reduce((sum, m) => sum + countTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}
