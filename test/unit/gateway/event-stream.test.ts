import { describe, expect, it } from 'vitest';
import { serverEvents, type ServerEvent } from '../../../main/core/gateway/read/event-stream.ts';

async function collect(chunks: string[]): Promise<ServerEvent[]> {
  const encoder = new TextEncoder();
  async function* source() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: ServerEvent[] = [];
  for await (const event of serverEvents(source())) events.push(event);
  return events;
}

const stream =
  'data: {"a":1}\n\n: keep-alive\n\ndata: {"b":2}\n\nevent: response.output_text.delta\ndata: {"c":3}\n\ndata: [DONE]\n\n';

describe('serverEvents', () => {
  it('reads events and skips keep-alive comments', async () => {
    expect(await collect([stream])).toEqual([
      { event: null, data: '{"a":1}' },
      { event: null, data: '{"b":2}' },
      { event: 'response.output_text.delta', data: '{"c":3}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('gives the same events however the bytes are split', async () => {
    const whole = await collect([stream]);
    for (let size = 1; size < 12; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      expect(await collect(chunks)).toEqual(whole);
    }
  });

  it('splits a multi-byte character across chunks without damage', async () => {
    const bytes = new TextEncoder().encode('data: "héllo ✓"\n\n');
    async function* source() {
      for (const byte of bytes) yield new Uint8Array([byte]);
    }
    const events: ServerEvent[] = [];
    for await (const event of serverEvents(source())) events.push(event);
    expect(events).toEqual([{ event: null, data: '"héllo ✓"' }]);
  });

  it('accepts CRLF and CR line ends, joins data lines, and keeps a last event without its blank line', async () => {
    expect(await collect(['data: a\r\ndata: b\r', '\n\r\ndata:c\rdata: d'])).toEqual([
      { event: null, data: 'a\nb' },
      { event: null, data: 'c\nd' },
    ]);
  });

  it('reads a web ReadableStream and cancels it when the reader stops early', async () => {
    let canceled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: x\n\n'));
      },
      cancel() {
        canceled = true;
      },
    });
    for await (const event of serverEvents(body)) {
      expect(event.data).toBe('x');
      break;
    }
    expect(canceled).toBe(true);
  });
});
