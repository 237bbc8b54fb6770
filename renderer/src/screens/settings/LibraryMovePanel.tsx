import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { OutputOf } from '../../../../shared/api/types.ts';
import { useAction } from '../../data/action.ts';
import { useData } from '../../data/data-context.ts';
import { keys } from '../../data/keys.ts';
import { formatBytes, plural } from '../../format.ts';
import { Field } from './Field.tsx';

type Move = NonNullable<OutputOf<'library', 'moveStatus'>>;

/** What a move is doing or did, in a line. */
export function moveText(move: Move): string {
  const files = `${move.done.toLocaleString('en-US')} of ${plural(move.total, 'file')}`;
  switch (move.state) {
    case 'running':
      return move.phase === 'copying'
        ? `Copying to ${move.to}: ${files} (${formatBytes(move.bytes)} of ${formatBytes(move.totalBytes)}). The library stays where it is until every file is there.`
        : `The library is now ${move.to}; removing the old copies: ${files}.`;
    case 'done':
      return `Moved ${plural(move.total, 'file')} to ${move.to}: the library is there now.`;
    case 'canceled':
      return `Canceled: the copies were removed, the library stays in ${move.from}.`;
    case 'failed':
      return `The move stopped: ${move.error ?? 'an error'}. The library stays in ${move.phase === 'copying' ? move.from : move.to}.`;
    case 'interrupted':
      return move.phase === 'copying'
        ? `Atelier stopped while copying to ${move.to} (${files}); the library works in ${move.from}. Resume the move, or roll it back.`
        : `Atelier stopped while removing the old copies; the library works in ${move.to}. Resume to finish.`;
  }
}

/**
 * Moving the library's files to a new, empty folder: copied there first (the library stays
 * whole where it is), switched once all are there, then the old copies removed; with its
 * progress from `library.move` events, and cancel while it copies.
 */
export function LibraryMovePanel() {
  const { api } = useData();
  const headingId = useId();
  const move = useQuery({
    queryKey: keys.libraryMove(),
    queryFn: () => api.library.moveStatus(),
  }).data;
  const start = useAction<string, Move>({
    run: (dir) => api.library.move({ dir }),
    what: 'move the library',
  });
  const cancel = useAction<void, unknown>({
    run: () => api.library.cancelMove(),
    what: 'cancel the move',
  });
  const resume = useAction<void, unknown>({
    run: () => api.library.resumeMove(),
    what: 'resume the move',
  });
  const rollback = useAction<void, unknown>({
    run: () => api.library.rollbackMove(),
    what: 'roll the move back',
  });
  const [dir, setDir] = useState('');
  const [error, setError] = useState<string | null>(null);
  const running = move?.state === 'running';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await start.attempt(dir.trim());
    setError(result.ok ? null : result.message);
    if (result.ok) setDir('');
  };
  return (
    <form
      className="panel settings-panel"
      aria-labelledby={headingId}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={headingId}>Move the library</h3>
      <Field
        label="New, empty folder"
        hint="Every file is copied there, the library switches once all are, then the old copies go. A link is never followed out of the library."
        error={error}
      >
        {(control) => (
          <input
            {...control}
            value={dir}
            spellCheck={false}
            autoComplete="off"
            placeholder="/full/path/to/an/empty/folder"
            disabled={running}
            onChange={(e) => {
              setDir(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <div className="form-actions">
        <button type="submit" disabled={running || !dir.trim() || start.disabled}>
          Move the files there
        </button>
      </div>
      {move && (
        <div className="library-move" role="status" aria-label="Library move">
          {running && (
            <progress
              max={Math.max(move.totalBytes, 1)}
              value={move.bytes}
              aria-label="Files moved"
            />
          )}
          <p>{moveText(move)}</p>
          {move.leftBehind.length > 0 && (
            <details>
              <summary>{plural(move.leftBehind.length, 'file')} stayed where it was</summary>
              <ul>
                {move.leftBehind.map((file) => (
                  <li key={file.path}>
                    {file.path}: {file.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <div className="form-actions">
            {running && move.phase === 'copying' && (
              <button type="button" className="ghost" onClick={() => void cancel.run()}>
                Cancel the move
              </button>
            )}
            {move.state === 'interrupted' && (
              <button type="button" onClick={() => void resume.run()}>
                Resume the move
              </button>
            )}
            {move.state === 'interrupted' && move.phase === 'copying' && (
              <button type="button" className="ghost" onClick={() => void rollback.run()}>
                Roll it back
              </button>
            )}
          </div>
        </div>
      )}
    </form>
  );
}
