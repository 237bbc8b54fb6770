import { selectDemoNotice, selectNotice } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';

/** What the frame says at all times: demo mode, a recovered settings file, a failed call. */
export function Notices() {
  const demo = useAppStore(selectDemoNotice);
  const host = useAppStore((s) => s.info?.host ?? null);
  const notice = useAppStore(selectNotice);
  const recovered = useAppStore((s) => s.info?.recoveredSettings ?? null);
  const errors = useAppStore((s) =>
    [s.appError, s.queueError, s.batchesError, s.jobsError].filter((e) => e !== null).join('\n'),
  );
  return (
    <>
      {demo && (
        <p className="notice notice-demo" role="note" aria-label="Demo mode">
          <strong>{demo}</strong> {DEMO_WAY_OUT[host ?? 'web']}
        </p>
      )}
      {notice && (
        <p className="notice" role="note">
          {notice}
        </p>
      )}
      {recovered && (
        <p className="notice notice-warning" role="note">
          The settings file could not be read ({recovered.reason}); it was kept as{' '}
          <code>{recovered.backupPath}</code> and the defaults are in use.
        </p>
      )}
      {errors && (
        <p className="notice notice-error" role="alert">
          {errors}
        </p>
      )}
    </>
  );
}

/** How to leave demo mode, where the person is. */
const DEMO_WAY_OUT = {
  desktop: 'To use your gateway, set it and its key in Settings.',
  web: 'To use your gateway, set it and its key in Settings, or start with atelier ui --gateway URL.',
  cli: 'To use your gateway, run with --gateway URL and ATELIER_API_KEY.',
} as const;
