import type { PromptHelp, PromptHelpProgress } from './types.ts';

/**
 * A request's `prompts.progress` event written into what the window knows of it: the prompts
 * it adds (by their index, so one already read through `prompts.get` is not added twice), its
 * state, the line being written and the repeats dropped. `gap` says prompts were missed (an
 * event that came before the window knew the request, or while it was offline): read it again.
 */
export function withProgress(
  help: PromptHelp,
  event: PromptHelpProgress,
): { help: PromptHelp; gap: boolean } {
  // an ended request stays ended: an event older than the `prompts.get` that said so changes nothing
  if (help.state !== 'running') return { help, gap: false };
  const first = event.added[0]?.index;
  const gap = first !== undefined && first > help.prompts.length;
  const fresh = event.added.filter((idea) => idea.index >= help.prompts.length);
  const ended = event.state !== 'running';
  return {
    gap,
    help: gap
      ? help
      : {
          ...help,
          prompts: fresh.length > 0 ? [...help.prompts, ...fresh] : help.prompts,
          state: event.state,
          partial: event.partial,
          duplicates: event.duplicates,
          error: event.error,
          // the event does not say when it ended; this window's clock is near enough to show
          endedAt: ended ? (help.endedAt ?? Date.now()) : null,
        },
  };
}
