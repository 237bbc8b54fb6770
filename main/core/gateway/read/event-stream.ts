/**
 * Server-sent events from a byte stream: lines may be split anywhere across chunks, comments
 * (`: keep-alive`) are skipped, `data:` lines of one event are joined. Framing beyond this is
 * not stated by the interface (4 rule 6), so the reader is lenient: CRLF, CR and LF all end lines.
 */
export interface ServerEvent {
  event: string | null;
  data: string;
}

type Chunks = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** Reads a web stream chunk by chunk; stopping early cancels it (the connection is freed). */
async function* chunksOf(source: Chunks): AsyncGenerator<Uint8Array | string> {
  if (!('getReader' in source)) {
    yield* source;
    return;
  }
  const reader = source.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export async function* serverEvents(source: Chunks): AsyncGenerator<ServerEvent> {
  const chunks = chunksOf(source);
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | null = null;
  let data: string[] = [];

  function* lines(final: boolean): Generator<ServerEvent> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === buffer.length - 1 && !final)) break;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      const done = takeLine(line);
      if (done) yield done;
    }
  }

  function takeLine(line: string): ServerEvent | null {
    if (line === '') {
      const ready = data.length ? { event, data: data.join('\n') } : null;
      event = null;
      data = [];
      return ready;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return null;
  }

  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield* lines(false);
  }
  buffer += decoder.decode();
  yield* lines(true);
  // A last event without its blank line still counts.
  const last = buffer === '' ? null : takeLine(buffer);
  if (last) yield last;
  buffer = '';
  const pending = takeLine('');
  if (pending) yield pending;
}
