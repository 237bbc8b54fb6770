import type { ApiEventOf } from '../../../shared/api/events.ts';
import type { InputOf, OutputOf } from '../../../shared/api/types.ts';

/** The service's data as the window receives it, named once for every screen. */
export type QueueState = OutputOf<'queue', 'state'>;
export type Progress = QueueState['progress'];
export type PauseInfo = NonNullable<QueueState['paused']>;
export type Limits = QueueState['limits'];
export type BatchSummary = OutputOf<'batches', 'list'>['items'][number];
export type BatchDetail = OutputOf<'batches', 'get'>;
export type BatchCounts = Pick<BatchSummary, 'jobs' | 'downloads' | 'spent'>;
export type JobSummary = OutputOf<'jobs', 'byIds'>[number];
export type JobDetail = OutputOf<'jobs', 'get'>;
export type AttemptSummary = OutputOf<'jobs', 'attempts'>['items'][number];
export type ImageSummary = OutputOf<'images', 'byIds'>[number];
export type ImageDetail = OutputOf<'images', 'get'>;
export type ImageQueryInput = NonNullable<InputOf<'images', 'ids'>['query']>;
export type ExportProgress = OutputOf<'exports', 'get'>;
export type AppInfo = OutputOf<'app', 'info'>;
export type KeyStatus = OutputOf<'key', 'status'>;
export type Settings = OutputOf<'settings', 'get'>;
export type SettingsPatch = InputOf<'settings', 'update'>;
export type PromptHelp = OutputOf<'prompts', 'get'>;
export type PromptHelpProgress = ApiEventOf<'prompts.progress'>['payload'];
