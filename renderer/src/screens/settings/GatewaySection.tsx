import { useId, useState } from 'react';
import type { Settings } from '../../data/types.ts';
import { KeyPanel } from './KeyPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import {
  draftOf,
  emptyDraft,
  unchanged,
  type GatewayProfileEdit,
  type GatewayProfileValue,
} from './profile-draft.ts';
import { useSave } from './settings-actions.ts';

type Editing = { mode: 'add' } | { mode: 'edit'; name: string } | null;

/** Gateway profiles, which one the queue uses (or the demo), and the key. */
export function GatewaySection({ settings }: { settings: Settings }) {
  const save = useSave();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const headingId = useId();
  const choiceErrorId = useId();
  const { profiles, gateway } = settings;
  const active = gateway.kind === 'demo' ? null : gateway.profile;
  // the choice shows at once; the saved one returns if the service refuses it
  const [choosing, setChoosing] = useState<{ name: string | null } | null>(null);
  const checked = choosing ? choosing.name : active;

  const choose = async (next: Settings['gateway']) => {
    const label = next.kind === 'demo' ? 'the demo' : next.profile;
    setChoosing({ name: next.kind === 'demo' ? null : next.profile });
    setChoiceError(await save({ gateway: next }, `The queue now uses ${label}`));
    setChoosing(null);
  };

  const saveProfile = async (profile: GatewayProfileEdit): Promise<string | null> => {
    const editedName = editing?.mode === 'edit' ? editing.name : null;
    // (the others go back as they are: their header values stay where the service keeps them)
    const others = profiles.map(unchanged);
    const next =
      editedName === null
        ? [...others, profile]
        : others.map((p) => (p.name === editedName ? profile : p));
    // a renamed gateway in use stays in use
    const follow = editedName !== null && editedName === active && profile.name !== editedName;
    const refusal = await save(
      follow
        ? { profiles: next, gateway: { kind: 'remote', profile: profile.name } }
        : { profiles: next },
      `Gateway “${profile.name}” saved`,
    );
    if (refusal === null) setEditing(null);
    return refusal;
  };

  const remove = async (name: string) => {
    const next = profiles.filter((p) => p.name !== name).map(unchanged);
    // the one in use goes: the queue falls back to the demo, never to nothing
    const refusal = await save(
      name === active ? { profiles: next, gateway: { kind: 'demo' } } : { profiles: next },
      `Gateway “${name}” removed`,
    );
    setChoiceError(refusal);
    setRemoving(null);
  };

  const editedProfile =
    editing?.mode === 'edit' ? profiles.find((p) => p.name === editing.name) : undefined;

  return (
    <div className="settings-stack">
      <section className="panel settings-panel" aria-labelledby={headingId}>
        <h3 id={headingId}>Gateways</h3>
        <fieldset
          className="gateway-choice"
          aria-describedby={choiceError ? choiceErrorId : undefined}
        >
          <legend>The queue sends its requests to</legend>
          <ul>
            <li className="gateway-option">
              <label>
                <input
                  type="radio"
                  name="gateway"
                  checked={checked === null}
                  onChange={() => void choose({ kind: 'demo' })}
                />
                <span className="gateway-name">Demo</span>
                <span className="gateway-url">The built-in simulator: nothing is charged.</span>
              </label>
            </li>
            {profiles.map((profile) => (
              <li className="gateway-option" key={profile.name}>
                <label>
                  <input
                    type="radio"
                    name="gateway"
                    checked={checked === profile.name}
                    onChange={() => void choose({ kind: 'remote', profile: profile.name })}
                  />
                  <span className="gateway-name">{profile.name}</span>
                  <span className="gateway-url">
                    {profile.baseUrl}
                    {headerCount(profile)}
                  </span>
                </label>
                {removing === profile.name ? (
                  <span className="row-actions confirm">
                    <span>
                      {profile.name === active ? 'Remove; the demo takes over?' : 'Remove?'}
                    </span>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void remove(profile.name)}
                    >
                      Remove
                    </button>
                    <button type="button" className="ghost" onClick={() => setRemoving(null)}>
                      Keep
                    </button>
                  </span>
                ) : (
                  <span className="row-actions">
                    <button
                      type="button"
                      className="ghost"
                      aria-label={`Edit ${profile.name}`}
                      onClick={() => setEditing({ mode: 'edit', name: profile.name })}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="ghost"
                      aria-label={`Remove ${profile.name}`}
                      onClick={() => setRemoving(profile.name)}
                    >
                      Remove
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </fieldset>
        {choiceError && (
          <p id={choiceErrorId} className="field-error" role="alert">
            {choiceError}
          </p>
        )}
        {profiles.length === 0 && editing === null && (
          <p className="empty-hint">
            No gateway yet: add yours with its base URL, then choose it and enter its key below.
          </p>
        )}
        {editing === null ? (
          <button type="button" onClick={() => setEditing({ mode: 'add' })}>
            Add gateway
          </button>
        ) : (
          <ProfileForm
            key={editing.mode === 'edit' ? editing.name : '(new)'}
            title={editing.mode === 'add' ? 'New gateway' : `Edit “${editing.name}”`}
            initial={editedProfile ? draftOf(editedProfile) : emptyDraft()}
            otherNames={profiles
              .map((p) => p.name)
              .filter((n) => editing.mode === 'add' || n !== editing.name)}
            onSave={saveProfile}
            onCancel={() => setEditing(null)}
          />
        )}
      </section>
      <KeyPanel profiles={profiles.map((p) => p.name)} active={active} />
    </div>
  );
}

function headerCount(profile: GatewayProfileValue): string {
  const count = profile.headers.length;
  return count === 0 ? '' : ` · ${count} extra header${count === 1 ? '' : 's'}`;
}
