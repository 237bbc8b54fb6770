import type { Handlers } from '../../../../shared/api/types.ts';
import { DEFAULT_TEMPLATE, renderRelativePath } from '../../library/naming.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import type { LibraryMover } from '../library-mover.ts';
import { settingsHandlers } from './settings.ts';

/** The file name a template gives a typical image, for the live example in Settings. */
export function templateExample(template: string, now: Date): string {
  try {
    return renderRelativePath(template, {
      batch: 'spring-posters',
      index: 7,
      image: 1,
      imageCount: 1,
      prompt: 'a lighthouse at dawn, watercolor',
      name: null,
      seed: 42,
      model: 'flux-schnell',
      size: '1024x1024',
      job: 7,
      date: now,
      ext: 'png',
    });
  } catch (error) {
    throw new AppError('invalid-argument', (error as Error).message);
  }
}

export function libraryHandlers(ctx: AppContext, mover: LibraryMover): Handlers['library'] {
  const info = () => ({
    libraryDir: ctx.libraryDir(),
    dataDir: ctx.dataDir,
    example: templateExample(ctx.settings.read().template ?? DEFAULT_TEMPLATE, new Date(ctx.now())),
  });
  return {
    async info() {
      return info();
    },
    async setLocation({ dir }) {
      if (mover.moving) throw new AppError('library-busy', 'The library is being moved.');
      await settingsHandlers(ctx).update({ library: dir });
      return info();
    },
    async move({ dir }) {
      return mover.start(dir);
    },
    async moveStatus() {
      return mover.status();
    },
    async cancelMove() {
      return mover.cancel();
    },
    async resumeMove() {
      return mover.resume();
    },
    async rollbackMove() {
      return mover.rollback();
    },
    async previewTemplate({ template }) {
      return { example: templateExample(template, new Date(ctx.now())) };
    },
  };
}
