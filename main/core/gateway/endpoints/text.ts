import type { ChatResult, Outcome, ResponsesResult } from '../../../../shared/gateway/outcome.ts';
import type { ChatRequest, ResponsesRequest } from '../../../../shared/gateway/requests.ts';
import { header } from '../classify/headers.ts';
import type { GatewayContext } from '../context.ts';
import { callJson } from '../http/call-json.ts';
import { GatewayError } from '../http/errors.ts';
import { openExchange, parseJson, type CallOptions, type ExchangeSpec } from '../http/exchange.ts';
import { serverEvents } from '../read/event-stream.ts';
import { readChatResponse, readResponsesBody } from '../read/text-response.ts';
import { StreamErrorEvent, textPieces, type TextStreamFormat } from '../read/text-stream.ts';
import { refuse } from './refuse.ts';

function textModelProblems(context: GatewayContext, model: string): string[] {
  if (!model) return ['Choose a text model.'];
  const entry = context.catalogue.lookup(model);
  // Unknown names look like permissive image entries; only a known non-text model is refused.
  if (context.catalogue.knows(model) && entry.kind !== 'text') {
    return [`${model} is a ${entry.kind} model; choose a text model.`];
  }
  return [];
}

function chatProblems(context: GatewayContext, request: ChatRequest): string[] {
  const problems = textModelProblems(context, request.model);
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    problems.push('There is no message to send.');
  }
  return problems;
}

function chatSpec(request: ChatRequest, stream: boolean): ExchangeSpec {
  return {
    method: 'POST',
    path: '/chat/completions',
    json: {
      ...request.extra,
      model: request.model,
      messages: request.messages,
      ...(stream ? { stream: true } : {}),
    },
    ...(stream ? { accept: 'text/event-stream' } : {}),
  };
}

/** POST /v1/chat/completions, answered at once (interface 2.6). */
export async function chat(
  context: GatewayContext,
  request: ChatRequest,
  options: CallOptions = {},
): Promise<Outcome<ChatResult>> {
  const problems = chatProblems(context, request);
  if (problems.length) return refuse(context, `chat with ${request.model}`, problems);
  return callJson(context, chatSpec(request, false), options, (body) => {
    const reading = readChatResponse(body);
    return reading.ok ? reading : { kind: 'bad-body', status: 200, detail: reading.detail };
  });
}

/**
 * POST /v1/chat/completions with `stream: true`: yields the text pieces as they come. Empty
 * deltas, role-only chunks and keep-alive comments yield nothing (interface 4 rule 6).
 * Failures, before or during the stream, are thrown as GatewayError with the outcome.
 */
export async function* chatStream(
  context: GatewayContext,
  request: ChatRequest,
  options: CallOptions = {},
): AsyncGenerator<string, void, undefined> {
  const problems = chatProblems(context, request);
  if (problems.length)
    throw new GatewayError(refuse(context, `chat with ${request.model}`, problems));
  yield* streamText(context, chatSpec(request, true), options, 'chat', (body) => {
    const reading = readChatResponse(body);
    return reading.ok ? reading.value.content : null;
  });
}

function responsesSpec(request: ResponsesRequest, stream: boolean): ExchangeSpec {
  return {
    method: 'POST',
    path: '/responses',
    json: {
      ...request.extra,
      model: request.model,
      input: request.input,
      ...(stream ? { stream: true } : {}),
    },
    ...(stream ? { accept: 'text/event-stream' } : {}),
  };
}

/** POST /v1/responses, answered at once. */
export async function responses(
  context: GatewayContext,
  request: ResponsesRequest,
  options: CallOptions = {},
): Promise<Outcome<ResponsesResult>> {
  const problems = textModelProblems(context, request.model);
  if (problems.length) return refuse(context, `responses with ${request.model}`, problems);
  return callJson(context, responsesSpec(request, false), options, (body) => {
    const reading = readResponsesBody(body);
    return reading.ok ? reading : { kind: 'bad-body', status: 200, detail: reading.detail };
  });
}

/** POST /v1/responses streamed: yields `response.output_text.delta` pieces. */
export async function* responsesStream(
  context: GatewayContext,
  request: ResponsesRequest,
  options: CallOptions = {},
): AsyncGenerator<string, void, undefined> {
  const problems = textModelProblems(context, request.model);
  if (problems.length)
    throw new GatewayError(refuse(context, `responses with ${request.model}`, problems));
  yield* streamText(context, responsesSpec(request, true), options, 'responses', (body) => {
    const reading = readResponsesBody(body);
    return reading.ok ? reading.value.text : null;
  });
}

async function* streamText(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions,
  format: TextStreamFormat,
  whole: (body: unknown) => string | null,
): AsyncGenerator<string, void, undefined> {
  const answer = await openExchange(context, spec, options);
  if (!('response' in answer)) throw new GatewayError(answer);
  const { response } = answer;
  const isStream = (header(response.headers, 'content-type') ?? '').includes('text/event-stream');

  if (response.status < 200 || response.status >= 300 || !isStream) {
    const text = await answer.text();
    if (!text.ok) throw new GatewayError(text);
    const body = parseJson(text.text);
    if (response.status >= 200 && response.status < 300) {
      // A gateway that ignores `stream: true` answers the whole text at once: accept it.
      const content = body === undefined ? null : whole(body);
      if (content !== null) {
        answer.close();
        if (content) yield content;
        return;
      }
    }
    const contentType = header(response.headers, 'content-type');
    const failure = answer.fail(
      response.status >= 200 && response.status < 300
        ? { kind: 'bad-body', status: response.status, contentType }
        : { kind: 'http', status: response.status, headers: response.headers, body, contentType },
    );
    answer.close(failure.message);
    throw new GatewayError(failure);
  }

  try {
    yield* textPieces(serverEvents(answer.stream()), format);
  } catch (error) {
    if (!(error instanceof StreamErrorEvent)) throw error;
    throw new GatewayError(answer.fail({ kind: 'http', status: 200, body: error.body }));
  } finally {
    answer.close();
  }
}
