/** One server-sent event: its data, and the last event id seen (kept from earlier ones). */
export interface SseMessage {
  data: string;
  lastEventId: string;
}

/**
 * Reads a `text/event-stream` body as the browser's EventSource would (the parts the host
 * sends: `data`, `id`, comments; lines ending in LF or CRLF), for a stream opened with `fetch`,
 * which unlike EventSource can send the session's `Authorization` header.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  lastEventId = '',
  /** Called for every chunk read, keep-alive comments included: the stream is alive. */
  onChunk: () => void = () => {},
): AsyncGenerator<SseMessage> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buffer = '';
  let data: string[] = [];
  let id = lastEventId;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk();
      buffer += value;
      const lines = buffer.split('\n');
      // the last piece may be a line cut in two: kept for the next chunk
      buffer = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line === '') {
          if (data.length > 0) yield { data: data.join('\n'), lastEventId: id };
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
