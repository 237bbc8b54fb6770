import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { renderClip } from '../../main/simulator/video/clip.ts';

/**
 * A gateway other than the simulator, written from the interface document alone, with habits
 * of its own the document allows (what a test of "works against another gateway" needs):
 *
 * - text streams (interface 4 rule 6) framed with CRLF, `: ping` comments and empty deltas,
 *   written in 7-byte slices that cut lines, JSON and UTF-8 characters in two, and ending
 *   without `[DONE]`; its answer opens with a preamble and numbers its lines `1)`;
 * - images answered as `b64_json` only (2.5 rule 1: a client must handle either);
 * - video tasks submitted as `{task_id, status: "NOT_START"}` and read back in the task-style
 *   envelope `{code, message, data}` (7 rule 2), through `queued`, `IN_PROGRESS` with progress
 *   as `"45%"`, then `rendering` (a status no list names) with progress as a number, held
 *   there until `release()`; no thumbnail variant of the content;
 * - video models on request only: `forbidden` ones are left out of `GET /v1/models` and
 *   refused with 403 (5, 7), as the `forbidden` text models are.
 */
export interface StandInGateway {
  url: string;
  key: string;
  /** Method and path of every request, in order. */
  requests: string[];
  /** Lets every video task held at `rendering` finish (and those submitted later). */
  release(): void;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** The models `GET /v1/models` lists for the key. */
  models: readonly string[];
  /** Models the key may not use: left out of the list, refused with 403. */
  forbidden?: readonly string[];
  /** The lines a text model writes, after its preamble; the same whatever it is asked. */
  ideas: readonly string[];
  /** Video tasks wait at `rendering` until `release()` (false: they run through). */
  holdVideos?: boolean;
}

const KEY = 'sk-stand-in-0123456789';

interface Task {
  id: string;
  prompt: string;
  size: string;
  seconds: number;
  checks: number;
}

export async function startStandInGateway(options: StandInOptions): Promise<StandInGateway> {
  const requests: string[] = [];
  const tasks = new Map<string, Task>();
  const forbidden = new Set(options.forbidden ?? []);
  let released = !options.holdVideos;
  let ids = 0;
  const requestId = () => `sr-${(++ids).toString(36).padStart(5, '0')}`;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-svc-request-id': requestId(),
    });
    response.end(JSON.stringify(body));
  };
  const refuse = (response: ServerResponse, status: number, code: string, message: string) =>
    send(response, status, { error: { type: 'invalid_request_error', code, message } });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(`${request.method} ${url.pathname}`);
    if (request.headers.authorization !== `Bearer ${KEY}`) {
      return refuse(response, 401, 'invalid_api_key', 'The API key is missing or wrong.');
    }
    const body = request.method === 'POST' ? await readJson(request) : {};
    const model = typeof body.model === 'string' ? body.model : '';
    if (model && forbidden.has(model)) {
      return refuse(
        response,
        403,
        'model_not_allowed',
        `This key may not use ${model}: request access for it in the console.`,
      );
    }
    const path = url.pathname;
    if (request.method === 'GET' && path === '/v1/models') {
      const listed = options.models.filter((id) => !forbidden.has(id));
      return send(response, 200, {
        object: 'list',
        data: listed.map((id) => ({ id, object: 'model' })),
      });
    }
    if (request.method === 'POST' && path === '/v1/chat/completions') {
      return streamChat(response, model, options.ideas, requestId());
    }
    if (request.method === 'POST' && path === '/v1/images/generations') {
      const n = typeof body.n === 'number' ? body.n : 1;
      const png = await sharp({
        create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 90, b: 160 } },
      })
        .png()
        .toBuffer();
      return send(response, 200, {
        created: Math.floor(Date.now() / 1000),
        data: Array.from({ length: n }, () => ({ b64_json: png.toString('base64') })),
      });
    }
    if (request.method === 'POST' && (path === '/v1/videos' || path === '/v1/video/generations')) {
      const id = `vt-${tasks.size + 1}`;
      tasks.set(id, {
        id,
        prompt: String(body.prompt ?? ''),
        size: typeof body.size === 'string' ? body.size : '1280x720',
        seconds: Number(body.seconds ?? 3) || 3,
        checks: 0,
      });
      return send(response, 200, { task_id: id, status: 'NOT_START' });
    }
    const task = /^\/v1\/(?:videos|video\/generations)\/([^/]+)(\/content)?$/.exec(path);
    if (request.method === 'GET' && task) {
      const found = tasks.get(decodeURIComponent(task[1]!));
      if (!found) return refuse(response, 404, 'task_not_found', 'No such task.');
      if (task[2]) {
        if (url.searchParams.get('variant')) {
          return refuse(response, 404, 'not_found', 'This gateway keeps no thumbnails.');
        }
        const clip = await renderClip(found.prompt, found.size, found.seconds);
        response.writeHead(200, { 'content-type': 'video/mp4', 'x-svc-request-id': requestId() });
        return void response.end(clip);
      }
      return send(response, 200, {
        code: 'success',
        message: '',
        data: statusOf(found, released),
      });
    }
    return refuse(response, 404, 'not_found', `Nothing at ${request.method} ${path}.`);
  }

  const server = createServer((request, response) => {
    response.on('error', () => {});
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, 'internal', String(error));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    key: KEY,
    requests,
    release: () => void (released = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A task's record at its n-th status check: queued, in progress, rendering, then done. */
function statusOf(task: Task, released: boolean) {
  task.checks++;
  const base = { task_id: task.id, fail_reason: null };
  if (task.checks <= 1) return { ...base, status: 'queued', progress: '0%' };
  if (task.checks <= 3) return { ...base, status: 'IN_PROGRESS', progress: `${task.checks * 15}%` };
  if (task.checks <= 5 || !released) return { ...base, status: 'rendering', progress: 60 };
  return { ...base, status: 'SUCCESS', progress: '100%' };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The answer as server-sent events, cut in 7-byte slices, ending without `[DONE]`. */
async function streamChat(
  response: ServerResponse,
  model: string,
  ideas: readonly string[],
  id: string,
): Promise<void> {
  const text = `Sure — here are some ideas:\r\n\r\n${ideas.map((idea, i) => `${i + 1}) ${idea}`).join('\n')}\n\nWant more? Just ask.`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: `chat-${id}`, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\r\n\r\n`;
  let stream = `: ping\r\n\r\n${chunk({ role: 'assistant', content: '' })}`;
  for (const piece of text.match(/\S+\s*/g) ?? []) {
    stream += `${chunk({ content: piece })}${chunk({})}: ping\r\n\r\n`;
  }
  stream += chunk({}, 'stop');
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'x-svc-request-id': id,
  });
  const bytes = Buffer.from(stream, 'utf8');
  for (let at = 0; at < bytes.length; at += 7) {
    if (response.destroyed) return;
    response.write(bytes.subarray(at, at + 7));
    // a few ms a slice: the window sees the prompts arrive one by one
    if (at % 210 === 0) await new Promise((resolve) => setTimeout(resolve, 8));
  }
  response.end();
}
