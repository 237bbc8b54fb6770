import { SIGNED_OUT_TITLE } from '../../../shared/api/session.ts';

/** What a browser window without a session shows instead of the app: how to open one. */
export function SignedOut({ message }: { message: string }) {
  return (
    <main
      className="signed-out"
      style={{ maxWidth: '36rem', margin: '15vh auto', padding: '0 1rem' }}
    >
      <h1>{SIGNED_OUT_TITLE}</h1>
      <p>{message}</p>
    </main>
  );
}
