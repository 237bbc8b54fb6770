import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { OutputOf } from '../../../../shared/api/types.ts';
import { useKeyStatus } from '../../data/app-queries.ts';
import { useApi } from '../../data/data-context.ts';
import { errorMessage } from '../../data/error-message.ts';
import type { KeyStatus } from '../../data/types.ts';
import { useClearKey, useSetKey } from './settings-actions.ts';

import { Field } from './Field.tsx';
import { UnknownModels } from './UnknownModels.tsx';

type ConnectionTest = OutputOf<'key', 'test'>;

const WHERE: Record<NonNullable<KeyStatus['source']>, string> = {
  env: 'from ATELIER_API_KEY in the environment',
  stored: 'kept in the system keyring',
  memory: 'in memory only',
};

/** What the panel says about the key: whether one is set, its last four, where it lives. */
export function keyStatusText(status: KeyStatus | null): string {
  if (!status) return 'Checking the key…';
  if (!status.set)
    return status.profile ? 'No key for this gateway, and no shared key.' : 'No key is set.';
  const where = status.source ? ` (${WHERE[status.source]})` : '';
  const ending = `ending in …${status.last4 ?? ''}${where}`;
  if (status.shared) return `A key is set: the shared one (it has none of its own), ${ending}.`;
  return `A key is set, ${ending}.`;
}

/**
 * A gateway's key (or the shared one, for every gateway without its own): set, replace,
 * remove, test. The key typed here goes to the service and nowhere else: it lives in this
 * input until saved, then the input is cleared. Where ATELIER_API_KEY decides, the controls
 * say so before a click.
 */
export function KeyPanel({ profiles, active }: { profiles: string[]; active: string | null }) {
  // whose key: the gateway in use by default
  const [chosen, setChosen] = useState<string | null>(active);
  const profile = chosen !== null && profiles.includes(chosen) ? chosen : null;
  const status = useKeyStatus(profile).data ?? null;
  const setKey = useSetKey();
  const clearKey = useClearKey();
  const api = useApi();
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [test, setTest] = useState<ConnectionTest | { error: string } | null>(null);
  const [testing, setTesting] = useState(false);
  // a gateway put in use above becomes the one whose key is shown (the person's pick until then)
  const [following, setFollowing] = useState(active);
  if (following !== active) {
    setFollowing(active);
    setChosen(active);
    setTest(null);
  }
  const headingId = useId();
  const locked = status?.locked ?? null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim() || locked) return;
    setBusy(true);
    const result = await setKey.attempt({ key: input, profile });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setInput('');
    setError(null);
    setTest(null);
    toast.success(profile ? `Key saved for “${profile}”` : 'Shared key saved');
  };

  const remove = async () => {
    setBusy(true);
    const result = await clearKey.attempt(profile);
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
      setTest(await api.key.test(profile === null ? {} : { profile }));
    } catch (failure) {
      setTest({ error: errorMessage(failure) });
    } finally {
      setTesting(false);
    }
  };

  const ownKey = status?.set && !status.shared;
  return (
    <section className="panel settings-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>API key</h3>
      {profiles.length > 0 && (
        <Field
          label="Key for"
          hint="Each gateway may have its own key; the shared key serves those without one."
        >
          {(control) => (
            <select
              {...control}
              value={profile ?? ''}
              onChange={(e) => {
                setChosen(e.target.value || null);
                setTest(null);
                setError(null);
              }}
            >
              {profiles.map((name) => (
                <option key={name} value={name}>
                  “{name}”{name === active ? ' (in use)' : ''}
                </option>
              ))}
              <option value="">The shared key (every gateway without its own)</option>
            </select>
          )}
        </Field>
      )}
      <p className="key-status" role="status" aria-label="Key status">
        {keyStatusText(status)}
      </p>
      {locked && (
        <p className="notice notice-warning key-locked" role="note">
          {locked}
        </p>
      )}
      {status && !status.storable && status.refusal && !locked && (
        <p className="field-hint">{status.refusal}</p>
      )}
      <form className="key-form" onSubmit={save}>
        <Field
          label={ownKey ? 'Replace the key' : 'Paste the key'}
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
              disabled={Boolean(locked)}
              placeholder="sk-…"
              onChange={(e) => {
                setInput(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" disabled={busy || !input.trim() || Boolean(locked)}>
            {ownKey ? 'Replace key' : 'Save key'}
          </button>
          <button
            type="button"
            className="ghost"
            disabled={busy || !ownKey || Boolean(locked)}
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
      {test && !('error' in test) && test.unknownModels && test.unknownModels.length > 0 && (
        <UnknownModels key={test.unknownModels.join(',')} ids={test.unknownModels} />
      )}
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
