import type { Handlers } from '../../../../shared/api/types.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';

export function exportHandlers(_ctx: AppContext): Handlers['exports'] {
  const notYet = async (): Promise<never> => {
    throw new AppError('unsupported', 'Exporting is not built yet.');
  };
  return { start: notYet, get: notYet, cancel: notYet };
}
