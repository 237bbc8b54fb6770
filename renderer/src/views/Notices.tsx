import { useAppInfo } from '../data/app-queries.ts';
import { useConnectionProblem } from '../data/data-context.ts';
import { errorMessage } from '../data/error-message.ts';
import { demoNotice, hostNotice } from '../frame/queue-status.ts';

/** What the frame says at all times: demo mode, a recovered settings file, a failed call. */
export function Notices() {
  const { data: info, error } = useAppInfo();
  const demo = demoNotice(info);
  const notice = hostNotice(info);
  const recovered = info?.recoveredSettings ?? null;
  const cutOff = useConnectionProblem();
  return (
    <>
      {cutOff && (
        <p className="notice notice-error" role="alert" aria-label="Disconnected">
          <strong>Disconnected from Atelier.</strong> {cutOff.reason} Trying again; until then, what
          is shown may be out of date and changes wait.
        </p>
      )}
      {demo && (
        <p className="notice notice-demo" role="note" aria-label="Demo mode">
          <strong>{demo}</strong> {DEMO_WAY_OUT[info?.host ?? 'web']}
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
      {error && (
        <p className="notice notice-error" role="alert">
          Atelier’s service did not answer: {errorMessage(error)}
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
