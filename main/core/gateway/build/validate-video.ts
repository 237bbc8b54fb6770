import type { Catalogue } from '../../../../shared/gateway/catalogue.ts';
import type { VideoRequest } from '../../../../shared/gateway/requests.ts';

/**
 * What is certainly wrong with a video request, for a person: a model known to be no video
 * model, an empty prompt, a size written with ×, a duration or size its entry does not list.
 * The submission refuses these before sending; the import reports them by row.
 */
export function videoRequestProblems(catalogue: Catalogue, request: VideoRequest): string[] {
  const entry = catalogue.lookup(request.model);
  const problems: string[] = [];
  if (catalogue.knows(request.model) && entry.kind !== 'video') {
    problems.push(`${request.model} is a ${entry.kind} model; choose a video model.`);
  }
  if (!request.prompt?.trim()) problems.push('The prompt is empty: describe the video to make.');
  if (request.size?.includes('×')) {
    problems.push(
      `Size "${request.size}" uses the multiplication sign ×; write a lowercase x, as in 1280x720.`,
    );
  }
  if (entry.kind === 'video') {
    if (
      request.seconds !== undefined &&
      entry.seconds.length &&
      !entry.seconds.includes(request.seconds)
    ) {
      problems.push(
        `${entry.id} makes videos of ${entry.seconds.join(', ')} seconds; ${request.seconds} was asked.`,
      );
    }
    if (request.size !== undefined && entry.sizes.length && !entry.sizes.includes(request.size)) {
      problems.push(
        `${entry.id} makes videos of size ${entry.sizes.join(', ')}; ${request.size} was asked.`,
      );
    }
  }
  return problems;
}
