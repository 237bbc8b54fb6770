import { navigate } from '../../frame/navigation.ts';
import { useKeyStatus, useQueueState } from '../../data/app-queries.ts';
import type { PauseInfo } from '../../data/types.ts';
import { BudgetPause } from './BudgetPause.tsx';
import { useResumeQueue } from './queue-actions.ts';

interface PauseAdvice {
  title: string;
  todo: string;
  settings: boolean;
}

/** What each kind of stop asks of the person before resuming. */
export function pauseAdvice(paused: PauseInfo, keyFromEnvironment: boolean): PauseAdvice {
  const keyWhere = keyFromEnvironment
    ? 'The key comes from ATELIER_API_KEY: set a working one and restart Atelier'
    : 'Check the key in Settings';
  switch (paused.kind) {
    case 'auth':
      return {
        title: 'The gateway refused the key',
        todo: `${keyWhere}, then resume.`,
        settings: true,
      };
    case 'permission':
      return {
        title: 'The key is not allowed this request',
        todo: 'Allow the model for this key in the gateway’s console, or choose another model; then resume.',
        settings: true,
      };
    case 'balance':
      return {
        title: 'The account is out of quota',
        todo: 'Top up the account or raise the key’s limit in the gateway’s console, then resume.',
        settings: false,
      };
    case 'rate-limit':
      return {
        title: 'The gateway keeps rate limiting',
        todo: 'Lower the concurrency or the requests per minute (the queue’s limits), wait a little, then resume.',
        settings: false,
      };
    case 'disk':
      return {
        title: 'Images cannot be written',
        todo: 'Free some disk space or choose another library folder in Settings, then resume.',
        settings: true,
      };
    case 'budget':
      return {
        title: 'A spending cap is reached',
        todo: 'Raise the cap in Settings, then resume.',
        settings: true,
      };
    case 'manual':
      return {
        title: 'You paused the queue',
        todo: 'Nothing new is sent until you resume.',
        settings: false,
      };
    case 'other':
      return { title: 'The queue stopped', todo: 'Read why below, then resume.', settings: false };
  }
}

/** Why the whole queue stopped, what to do, and the Resume button. */
export function PauseBanner() {
  const paused = useQueueState((queue) => queue.paused).data ?? null;
  const fromEnv = useKeyStatus().data?.source === 'env';
  const resume = useResumeQueue();
  if (!paused) return null;
  if (paused.kind === 'budget' && paused.budget) {
    const { scope, key, cap } = paused.budget;
    return <BudgetPause key={`${scope}/${key}/${cap}`} stop={paused.budget} />;
  }
  const advice = pauseAdvice(paused, fromEnv);
  return (
    <section className="pause-banner" aria-label="Queue paused">
      <div className="pause-text">
        <strong>Paused: {advice.title}.</strong> {advice.todo}
        {paused.kind !== 'manual' && paused.reason && (
          <p className="pause-reason">
            {paused.reason}
            {paused.code && <code> ({paused.code})</code>}
          </p>
        )}
      </div>
      <div className="pause-actions">
        {advice.settings && (
          <button type="button" className="ghost" onClick={() => navigate('settings')}>
            Open Settings
          </button>
        )}
        <button type="button" disabled={resume.disabled} onClick={() => void resume.run()}>
          Resume
        </button>
      </div>
    </section>
  );
}
