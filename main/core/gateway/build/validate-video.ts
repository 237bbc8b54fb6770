import type { Catalogue } from '../../../../shared/gateway/catalogue.ts';
import { videoSecondsProblem, videoSizeProblem } from '../../../../shared/gateway/params.ts';
import type { VideoRequest } from '../../../../shared/gateway/requests.ts';

/**
 * What is certainly wrong with a video request, for a person: a model known to be no video
 * model, an empty prompt, a size written with ×, a duration or size its entry does not list
 * (the rules of shared/gateway/params.ts, which Compose checks as the person types). The
 * submission refuses these before sending; the import reports them by row.
 */
export function videoRequestProblems(catalogue: Catalogue, request: VideoRequest): string[] {
  const entry = catalogue.lookup(request.model);
  const problems: string[] = [];
  if (catalogue.knows(request.model) && entry.kind !== 'video') {
    problems.push(`${request.model} is a ${entry.kind} model; choose a video model.`);
  }
  if (!request.prompt?.trim()) problems.push('The prompt is empty: describe the video to make.');
  if (entry.kind === 'video') {
    if (request.seconds !== undefined) {
      const problem = videoSecondsProblem(entry, request.seconds);
      if (problem) problems.push(problem);
    }
    if (request.size !== undefined) {
      const problem = videoSizeProblem(entry, request.size);
      if (problem) problems.push(problem);
    }
  } else if (request.size?.includes('×')) {
    problems.push(
      `Size "${request.size}" uses the multiplication sign ×; write a lowercase x, as in 1280x720.`,
    );
  }
  return problems;
}
