import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultName } from './faults.ts';

/** An error the gateway answers with: `{error: {type, code, message}}` and an HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  /** The task an error is about (task and video errors carry it as top-level `data`). */
  readonly data: unknown;

  constructor(
    status: number,
    type: string,
    code: string,
    message: string,
    options: { param?: string; headers?: Record<string, string>; data?: unknown } = {},
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
    this.data = options.data ?? null;
  }
}

/** A 400 for a bad field, the most common error; `param` names the field. */
export function badRequest(code: string, message: string, param?: string): ApiError {
  return new ApiError(400, 'invalid_request_error', code, message, param ? { param } : {});
}

/** What a response writer needs to know about the request it answers. */
export interface ResponseTarget {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  fault: FaultName | null;
  /** How long a `slow` fault stretches a body over. */
  slowBodyMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes a body, applying the transport faults (`reset`, `slow`, `url-truncate`).
 * Resolves true when the whole body was handed to the socket, false when it was cut off
 * or the client had gone: the caller refunds what was not delivered.
 */
export async function writeBody(
  target: ResponseTarget,
  status: number,
  headers: Record<string, string | number>,
  body: Buffer,
): Promise<boolean> {
  const { res, fault } = target;
  if (res.destroyed) return false;
  if (fault === 'reset' || fault === 'url-truncate') {
    // Announce the full length, send part of it, then drop the connection.
    res.writeHead(status, { ...headers, 'Content-Length': body.length });
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    await new Promise<void>((resolve) =>
      res
        .once('drain', resolve)
        .once('close', resolve)
        .write('', () => resolve()),
    );
    res.socket?.destroy();
    return false;
  }
  if (fault === 'slow') {
    res.writeHead(status, { ...headers, 'Content-Length': body.length });
    const parts = 10;
    const step = Math.ceil(body.length / parts);
    for (let offset = 0; offset < body.length; offset += step) {
      if (res.destroyed) return false;
      res.write(body.subarray(offset, offset + step));
      await sleep(target.slowBodyMs / parts);
    }
    return endResponse(res);
  }
  res.writeHead(status, { ...headers, 'Content-Length': body.length });
  return endResponse(res, body);
}

function endResponse(res: ServerResponse, body?: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    res.once('close', () => resolve(res.writableFinished));
    res.end(body);
  });
}

export function sendJson(
  target: ResponseTarget,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<boolean> {
  const bytes = Buffer.from(JSON.stringify(body));
  return writeBody(target, status, { 'Content-Type': 'application/json', ...headers }, bytes);
}

/** Ordinary API error body (interface 7, rule 1). */
export function errorBody(error: ApiError, requestId: string) {
  return {
    error: { type: error.type, code: error.code, message: error.message, param: error.param },
    upstream_request_id: requestId,
  };
}

export function sendError(target: ResponseTarget, error: ApiError): Promise<boolean> {
  // Errors are never slowed or cut: the fault already chosen is the error itself.
  return sendJson(
    { ...target, fault: null },
    error.status,
    errorBody(error, target.requestId),
    error.headers,
  );
}

/** Task and video error body (interface 7, rule 2): top-level `code`, `message`, `data`. */
export function taskErrorBody(error: ApiError, requestId: string) {
  return {
    code: error.code,
    message: error.message,
    data: error.data,
    upstream_request_id: requestId,
  };
}

export function sendTaskError(target: ResponseTarget, error: ApiError): Promise<boolean> {
  return sendJson(
    { ...target, fault: null },
    error.status,
    taskErrorBody(error, target.requestId),
    error.headers,
  );
}

/**
 * Serves downloadable bytes (temporary image URLs, video content) with the download faults:
 * `url-404` expired, `url-500` failing, `url-truncate` cut short.
 */
export function sendFile(
  target: ResponseTarget,
  bytes: Buffer,
  contentType: string,
  /** How the download faults answer: ordinary errors, or `sendTaskError` for video content. */
  answerError: (target: ResponseTarget, error: ApiError) => Promise<boolean> = sendError,
): Promise<boolean> {
  if (target.fault === 'url-404') {
    return answerError(
      target,
      new ApiError(
        404,
        'invalid_request_error',
        'file_expired',
        'This temporary link has expired. Generated files must be copied at once.',
      ),
    );
  }
  if (target.fault === 'url-500') {
    return answerError(
      target,
      new ApiError(
        500,
        'server_error',
        'file_server_error',
        'The file server failed. Try the download again.',
      ),
    );
  }
  return writeBody(
    target,
    200,
    { 'Content-Type': contentType, 'Cache-Control': 'private, max-age=60' },
    bytes,
  );
}

/** The 504 / 524 a gateway sends when it gave up waiting although the upstream finished. */
export function workTimeoutError(fault: '504' | '524'): ApiError {
  return fault === '504'
    ? new ApiError(
        504,
        'server_error',
        'gateway_timeout',
        'Gateway time-out: the upstream did not answer in time.',
      )
    : new ApiError(
        524,
        'server_error',
        'origin_timeout',
        'A time-out occurred: the origin did not answer in time.',
      );
}

/**
 * Reads the whole request body, refusing more than `limit` bytes with 413. Events rather than
 * `for await`: the async iterator costs more than the rest of reading a small body.
 */
export function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanUp();
      // Stop reading: the rest is not wanted (as leaving a for-await loop destroys the stream).
      req.destroy();
      reject(
        new ApiError(
          413,
          'invalid_request_error',
          'request_too_large',
          `The request body is larger than ${limit} bytes.`,
        ),
      );
    };
    const onEnd = () => {
      cleanUp();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    const cleanUp = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Reads a JSON object body; 400 when it is not JSON or not an object. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(req)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('invalid_json', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('invalid_json', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
