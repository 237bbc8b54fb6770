import type { EngineOptions } from '../../core/engine/engine.ts';
import type { GatewayContextOptions } from '../../core/gateway/context.ts';
import { intFlag } from '../command.ts';

/** What a hostile or broken gateway may cost a run: bytes per file and answer, idle time. */
export const LIMIT_FLAGS = {
  'max-image-mb': { type: 'string' },
  'max-video-mb': { type: 'string' },
  'download-idle-s': { type: 'string' },
  'max-answer-mb': { type: 'string' },
} as const;

export const LIMIT_FLAGS_HELP = `  --max-image-mb N   a larger image download stops and fails, not retried (default 100)
  --max-video-mb N   the same for a video (default 2048)
  --download-idle-s S
                     a download silent for S seconds is given up and tried again (default 30)
  --max-answer-mb N  a larger answer (base64 images) is not read; the prompt fails as
                     uncertain, with its request id (default 256, at most 500)`;

export interface LimitFlagValues {
  'max-image-mb'?: string;
  'max-video-mb'?: string;
  'download-idle-s'?: string;
  'max-answer-mb'?: string;
}

export interface Limits {
  engine: Pick<EngineOptions, 'maxImageBytes' | 'maxVideoBytes' | 'downloadIdleMs'>;
  client: Pick<GatewayContextOptions, 'maxAnswerBytes'>;
}

const MB = 2 ** 20;
/** Below V8's longest string (about 512 MB): a larger answer could not be read as text. */
const MAX_ANSWER_MB = 500;

/** The limit flags as core options, for this run only (not saved with the data folder). */
export function limitFlags(values: LimitFlagValues): Limits {
  const limits: Limits = { engine: {}, client: {} };
  const image = intFlag(values['max-image-mb'], '--max-image-mb', 1, 1024 * 1024);
  if (image !== undefined) limits.engine.maxImageBytes = image * MB;
  const video = intFlag(values['max-video-mb'], '--max-video-mb', 1, 1024 * 1024);
  if (video !== undefined) limits.engine.maxVideoBytes = video * MB;
  const idle = intFlag(values['download-idle-s'], '--download-idle-s', 1, 24 * 3600);
  if (idle !== undefined) limits.engine.downloadIdleMs = idle * 1000;
  const answer = intFlag(values['max-answer-mb'], '--max-answer-mb', 1, MAX_ANSWER_MB);
  if (answer !== undefined) limits.client.maxAnswerBytes = answer * MB;
  return limits;
}
