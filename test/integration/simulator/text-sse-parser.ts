/** One block of a server-sent event stream: a comment, or an event with its data. */
export type SseBlock = { comment: string } | { event: string | null; data: string };

/** Parses an SSE body into blocks, keeping comments (keep-alives) that clients discard. */
export function parseSse(body: string): SseBlock[] {
  const blocks: SseBlock[] = [];
  for (const raw of body.split('\n\n')) {
    if (raw === '') continue;
    const lines = raw.split('\n');
    if (lines.every((line) => line.startsWith(':'))) {
      blocks.push({ comment: lines.map((l) => l.slice(1).trim()).join('\n') });
      continue;
    }
    let event: string | null = null;
    const data: string[] = [];
    for (const line of lines) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (!line.startsWith(':')) throw new Error(`Unexpected SSE line: ${line}`);
    }
    blocks.push({ event, data: data.join('\n') });
  }
  return blocks;
}

export function isComment(block: SseBlock): block is { comment: string } {
  return 'comment' in block;
}

/** Parsed JSON, loosely typed as `response.json()` is, so tests can reach into it. */
type Json = ReturnType<typeof JSON.parse>;

/** The JSON payloads of the data blocks, up to (not including) `[DONE]`. */
export function sseJson(blocks: SseBlock[]): Array<{ event: string | null; json: Json }> {
  const out: Array<{ event: string | null; json: Json }> = [];
  for (const block of blocks) {
    if (isComment(block)) continue;
    if (block.data === '[DONE]') break;
    out.push({ event: block.event, json: JSON.parse(block.data) });
  }
  return out;
}
