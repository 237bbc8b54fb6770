import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { OutputOf } from '../../../../shared/api/types.ts';
import { useKeyStatus } from '../../data/app-queries.ts';
import { useApi } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';
import type { KeyStatus } from '../../data/types.ts';
import { useClearKey, useSetKey } from './settings-actions.ts';

type ConnectionTest = OutputOf<'key', 'test'>;
import { Field } from './Field.tsx';

const WHERE: Record<NonNullable<KeyStatus['source']>, string> = {
  env: 'from ATELIER_API_KEY in the environment',
  stored: 'kept in the system keyring',
  memory: 'kept in memory until Atelier stops',
};

/** What the panel says about the key: whether one is set, its last four, where it lives. */
export function keyStatusText(status: KeyStatus | null): string {
  if (!status) return 'Checking the key…';
  if (!status.set) return 'No key is set.';
  const where = status.source ? ` (${WHERE[status.source]})` : '';
  return `A key is set, ending in …${status.last4 ?? ''}${where}.`;
}

/**
 * The gateway key: set, replace, remove, test. The key typed here goes to the service and
 * nowhere else: it lives in this input until saved, then the input is cleared.
 */
export function KeyPanel() {
  const status = useKeyStatus().data ?? null;
  const setKey = useSetKey();
  const clearKey = useClearKey();
  const api = useApi();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [test, setTest] = useState<ConnectionTest | { error: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const headingId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim()) return;
    setBusy(true);
    const result = await setKey.attempt(input);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setInput('');
    setError(null);
    setTest(null);
    toast.success('Key saved');
  };

  const remove = async () => {
    setBusy(true);
    const result = await clearKey.attempt();
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setError(null);
    setTest(null);
    toast.success('Key removed');
  };

  const runTest = async () => {
    setTesting(true);
    setTest(null);
    try {
      // a question to the gateway, not the service's data: asked each time, never cached
      setTest(await api.key.test());
    } catch (failure) {
      setTest({ error: errorMessage(failure) });
    } finally {
      setTesting(false);
    }
  };

  return (
    <section className="panel settings-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>API key</h3>
      <p className="key-status" role="status" aria-label="Key status">
        {keyStatusText(status)}
      </p>
      {status && !status.storable && status.refusal && (
        <p className="field-hint">{status.refusal}</p>
      )}
      <form className="key-form" onSubmit={save}>
        <Field
          label={status?.set ? 'Replace the key' : 'Paste the key'}
          hint="It is never shown again: only its last four characters are."
          error={error}
        >
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={input}
              placeholder="sk-…"
              onChange={(e) => {
                setInput(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" disabled={busy || !input.trim()}>
            {status?.set ? 'Replace key' : 'Save key'}
          </button>
          <button
            type="button"
            className="ghost"
            disabled={busy || !status?.set}
            onClick={() => void remove()}
          >
            Remove key
          </button>
        </div>
      </form>
      <div className="connection-test">
        <button type="button" className="ghost" disabled={testing} onClick={() => void runTest()}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <p role="status" aria-label="Connection test" className={testClass(test)}>
          {testText(test)}
        </p>
      </div>
    </section>
  );
}

function testClass(test: ConnectionTest | { error: string } | null): string {
  if (!test) return 'test-result';
  return 'error' in test || !test.ok ? 'test-result test-failed' : 'test-result test-ok';
}

function testText(test: ConnectionTest | { error: string } | null): string {
  if (!test) return '';
  if ('error' in test) return test.error;
  if (test.ok) return `Connected. ${test.message}`;
  // the gateway's own words, with its status when it answered at all
  return test.httpStatus
    ? `The gateway answered ${test.httpStatus}: ${test.message}`
    : test.message;
}
