import type {
  ChatResult,
  Download,
  ImageResult,
  Outcome,
  ResponsesResult,
  VideoTask,
} from '../../../shared/gateway/outcome.ts';
import type {
  ChatRequest,
  EditRequest,
  ImageRequest,
  ResponsesRequest,
  VideoRequest,
} from '../../../shared/gateway/requests.ts';
import {
  closeGatewayContext,
  createGatewayContext,
  type GatewayContext,
  type GatewayContextOptions,
} from './context.ts';
import { downloadImage } from './endpoints/download.ts';
import { editImage, generateAdvanced, generateImage } from './endpoints/images.ts';
import { listModels } from './endpoints/models.ts';
import { chat, chatStream, responses, responsesStream } from './endpoints/text.ts';
import { downloadVideoContent, getVideo, submitVideo } from './endpoints/video.ts';
import type { CallOptions } from './http/exchange.ts';
import type { VideoApi } from './read/video-task.ts';

/** The gateway client the engine holds: one method per endpoint, bound to one profile and key. */
export interface GatewayClient {
  readonly context: GatewayContext;
  generateImage(request: ImageRequest, options?: CallOptions): Promise<Outcome<ImageResult>>;
  generateAdvanced(request: ImageRequest, options?: CallOptions): Promise<Outcome<ImageResult>>;
  editImage(request: EditRequest, options?: CallOptions): Promise<Outcome<ImageResult>>;
  downloadImage(url: string, options?: CallOptions): Promise<Outcome<Download>>;
  chat(request: ChatRequest, options?: CallOptions): Promise<Outcome<ChatResult>>;
  chatStream(request: ChatRequest, options?: CallOptions): AsyncGenerator<string, void, undefined>;
  responses(request: ResponsesRequest, options?: CallOptions): Promise<Outcome<ResponsesResult>>;
  responsesStream(
    request: ResponsesRequest,
    options?: CallOptions,
  ): AsyncGenerator<string, void, undefined>;
  submitVideo(request: VideoRequest, options?: CallOptions): Promise<Outcome<VideoTask>>;
  getVideo(
    task: { id: string; api?: VideoApi },
    options?: CallOptions,
  ): Promise<Outcome<VideoTask>>;
  downloadVideoContent(
    taskId: string,
    options?: CallOptions & { variant?: 'video' | 'thumbnail' },
  ): Promise<Outcome<Download>>;
  listModels(options?: CallOptions): Promise<Outcome<string[] | null>>;
  /** Closes the connection pool. */
  close(): Promise<void>;
}

export function createGatewayClient(options: GatewayContextOptions): GatewayClient {
  const context = createGatewayContext(options);
  return {
    context,
    generateImage: (request, call) => generateImage(context, request, call),
    generateAdvanced: (request, call) => generateAdvanced(context, request, call),
    editImage: (request, call) => editImage(context, request, call),
    downloadImage: (url, call) => downloadImage(context, url, call),
    chat: (request, call) => chat(context, request, call),
    chatStream: (request, call) => chatStream(context, request, call),
    responses: (request, call) => responses(context, request, call),
    responsesStream: (request, call) => responsesStream(context, request, call),
    submitVideo: (request, call) => submitVideo(context, request, call),
    getVideo: (task, call) => getVideo(context, task, call),
    downloadVideoContent: (taskId, call) => downloadVideoContent(context, taskId, call),
    listModels: (call) => listModels(context, call),
    close: () => closeGatewayContext(context),
  };
}

export type { CallOptions } from './http/exchange.ts';
export { GatewayError } from './http/errors.ts';
