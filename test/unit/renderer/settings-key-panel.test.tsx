// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyPanel } from '../../../renderer/src/screens/settings/KeyPanel.tsx';
import { keys } from '../../../renderer/src/data/keys.ts';
import type { KeyStatus } from '../../../renderer/src/data/types.ts';
import { Refusal, type Handler } from './fake-api.ts';
import { mount as mountWith } from './mount.tsx';

const KEY = 'sk-test-0123456789abcdef1a2b';
const memory = { storable: false, refusal: 'The browser host keeps the key in memory.' };
const none: KeyStatus = { set: false, last4: null, source: null, ...memory };

afterEach(cleanup);

/**
 * The key panel over a service holding `keyStatus`; a change of the key is told to the window
 * by its `key.changed` event, as the service does.
 */
function mount(
  keyStatus: KeyStatus,
  handlers: Record<string, Handler>,
  gateways: { profiles: string[]; active: string | null } = { profiles: [], active: null },
) {
  let status = keyStatus;
  const changes = (name: string) => (input: never) => {
    status = (handlers[name] as (i: never) => KeyStatus)(input);
    queueMicrotask(() =>
      mounted.fake.emit({ cursor: 'k', events: [{ type: 'key.changed', payload: status }] }),
    );
    return status;
  };
  const mounted = mountWith(<KeyPanel {...gateways} />, {
    'key.status': () => status,
    ...handlers,
    ...(handlers['key.set'] ? { 'key.set': changes('key.set') } : {}),
    ...(handlers['key.clear'] ? { 'key.clear': changes('key.clear') } : {}),
  });
  const view = { container: document.body };
  return { ...mounted, view };
}

describe('the key panel', () => {
  it('sets the key: the status shows its last four only, the input is cleared', async () => {
    let held: string | null = null;
    const { fake, data, view } = mount(none, {
      'key.set': (input: { key: string }) => {
        held = input.key;
        return { set: true, last4: held.slice(-4), source: 'memory', ...memory };
      },
    });
    const user = userEvent.setup();
    await screen.findByText('No key is set.');
    const input = screen.getByLabelText<HTMLInputElement>('Paste the key');
    expect(input.type).toBe('password');
    expect(input.autocomplete).toBe('off');
    await user.type(input, KEY);
    await user.click(screen.getByRole('button', { name: 'Save key' }));

    expect(held).toBe(KEY);
    const status = await screen.findByText(/A key is set, ending in …1a2b/);
    expect(status.textContent).toBe('A key is set, ending in …1a2b (in memory only).');
    expect(screen.getByLabelText<HTMLInputElement>('Replace the key').value).toBe('');
    // the key went to the service once and is nowhere in the page or the store
    const carrying = fake.calls.filter((c) => JSON.stringify(c.input ?? null).includes(KEY));
    expect(carrying.map((c) => c.name)).toEqual(['key.set']);
    expect(view.container.innerHTML).not.toContain(KEY.slice(0, -4));
    expect(
      JSON.stringify(
        data.queries
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
      ),
    ).not.toContain(KEY.slice(0, -4));
    expect(screen.getByText(memory.refusal)).toBeTruthy();
  });

  it('shows the service’s refusal when the key comes from the environment', async () => {
    const conflict =
      'The key comes from ATELIER_API_KEY in the environment, which wins over one entered here.';
    const { data } = mount(
      { set: true, last4: 'zzzz', source: 'env', ...memory },
      {
        'key.set': () => {
          throw new Refusal({ code: 'conflict', message: conflict });
        },
      },
    );
    const user = userEvent.setup();
    await screen.findByText(/ending in …zzzz/);
    expect(screen.getByRole('status', { name: 'Key status' }).textContent).toBe(
      'A key is set, ending in …zzzz (from ATELIER_API_KEY in the environment).',
    );
    const input = screen.getByLabelText<HTMLInputElement>('Replace the key');
    await user.type(input, KEY);
    await user.click(screen.getByRole('button', { name: 'Replace key' }));

    const error = await screen.findByText(conflict);
    expect(input.getAttribute('aria-describedby')).toContain(error.id);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(data.queries.getQueryData<KeyStatus>(keys.keyStatus())?.last4).toBe('zzzz');
  });

  it('tests the connection and shows the gateway’s own words when it refuses', async () => {
    mount(
      { set: true, last4: '1a2b', source: 'memory', ...memory },
      {
        'key.test': () => ({
          ok: false,
          message: 'Invalid token (request id 7f3a)',
          httpStatus: 401,
          models: null,
        }),
      },
    );
    await screen.findByText(/ending in …1a2b/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Test connection' }));
    const result = screen.getByRole('status', { name: 'Connection test' });
    await expect
      .poll(() => result.textContent)
      .toBe('The gateway answered 401: Invalid token (request id 7f3a)');
  });

  it('removes the key', async () => {
    mount({ set: true, last4: '1a2b', source: 'memory', ...memory }, { 'key.clear': () => none });
    await screen.findByText(/ending in …1a2b/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove key' }));
    await screen.findByText('No key is set.');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove key' }).disabled).toBe(
      true,
    );
  });

  it('says before a click that ATELIER_API_KEY decides, the controls off', async () => {
    const locked =
      'ATELIER_API_KEY is set in the environment: it is the key for every gateway. Unset it and restart Atelier to keep keys here.';
    mount({ set: true, last4: 'zzzz', source: 'env', ...memory, locked }, {});
    await screen.findByText(locked);
    expect(screen.getByLabelText<HTMLInputElement>('Replace the key').disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Replace key' }).disabled).toBe(
      true,
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove key' }).disabled).toBe(
      true,
    );
  });

  it('keeps a key per gateway: the one in use first, the shared key for the others', async () => {
    const asked: unknown[] = [];
    const own = new Map<string, string>();
    const statusOf = (profile: string | undefined): KeyStatus => {
      const mine = profile === undefined ? undefined : own.get(profile);
      return {
        set: true,
        last4: mine ?? 'sh4r',
        source: 'memory',
        ...memory,
        profile: profile ?? null,
        shared: profile !== undefined && mine === undefined,
      };
    };
    const { fake } = mount(
      none,
      {
        'key.status': (input: { profile?: string }) => {
          asked.push(input);
          return statusOf(input.profile);
        },
        'key.set': (input: { key: string; profile?: string }) => {
          own.set(input.profile!, input.key.slice(-4));
          return statusOf(input.profile);
        },
      },
      { profiles: ['office', 'lab'], active: 'lab' },
    );
    const user = userEvent.setup();
    await screen.findByText(
      'A key is set: the shared one (it has none of its own), ending in …sh4r (in memory only).',
    );
    expect(screen.getByLabelText<HTMLSelectElement>('Key for').value).toBe('lab');
    await user.type(screen.getByLabelText('Paste the key'), KEY);
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    await screen.findByText(/A key is set, ending in …1a2b/);
    expect(fake.calls.filter((c) => c.name === 'key.set').map((c) => c.input)).toEqual([
      { key: KEY, profile: 'lab' },
    ]);
    await user.selectOptions(screen.getByLabelText('Key for'), '');
    await screen.findByText(/^A key is set, ending in …sh4r/);
    expect(asked).toContainEqual({ profile: 'lab' });
    expect(asked).toContainEqual({});
  });

  it('follows the gateway put in use above it', async () => {
    const statusOf = (input: { profile?: string }): KeyStatus => ({
      set: true,
      last4: input.profile === 'office' ? '0ff1' : 'l4b0',
      source: 'memory',
      ...memory,
      profile: input.profile ?? null,
      shared: false,
    });
    const { rerender } = mount(
      none,
      { 'key.status': statusOf },
      {
        profiles: ['office', 'lab'],
        active: 'lab',
      },
    );
    await screen.findByText(/ending in …l4b0/);
    rerender(<KeyPanel profiles={['office', 'lab']} active="office" />);
    await screen.findByText(/ending in …0ff1/);
    expect(screen.getByLabelText<HTMLSelectElement>('Key for').value).toBe('office');
  });

  it('offers the models the gateway lists and the catalogue lacks, added from a form', async () => {
    const added: unknown[] = [];
    mount(
      { set: true, last4: '1a2b', source: 'memory', ...memory },
      {
        'key.test': () => ({
          ok: true,
          message: 'The gateway lists 3 models; Atelier has no entry for 2 of them.',
          httpStatus: 200,
          models: ['gpt-image-1', 'my-sdxl', 'my-writer'],
          unknownModels: ['my-sdxl', 'my-writer'],
        }),
        'models.addEntries': (input: { entries: unknown[] }) => {
          added.push(...input.entries);
          return { entries: [] };
        },
      },
    );
    const user = userEvent.setup();
    await screen.findByText(/ending in …1a2b/);
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByRole('form', {
      name: 'Models the gateway lists that Atelier does not know',
    });
    await user.type(screen.getByLabelText('Price of my-sdxl'), '1,200');
    await user.selectOptions(screen.getByLabelText('Kind of my-writer'), 'text');
    await user.click(screen.getByRole('button', { name: 'Add 2 models to the catalogue' }));
    await screen.findByText(/Added to the catalogue/);
    expect(added).toEqual([
      { kind: 'image', id: 'my-sdxl', pricePerImage: 1200 },
      { kind: 'text', id: 'my-writer' },
    ]);
  });
});
