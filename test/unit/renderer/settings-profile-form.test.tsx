// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewaySection } from '../../../renderer/src/screens/settings/GatewaySection.tsx';
import {
  checkProfile,
  emptyDraft,
  headerRow,
} from '../../../renderer/src/screens/settings/profile-draft.ts';
import { useSettings } from '../../../renderer/src/data/app-queries.ts';
import { keys } from '../../../renderer/src/data/keys.ts';
import type { Settings, SettingsPatch } from '../../../renderer/src/data/types.ts';
import { SettingsView as SettingsSchema } from '../../../shared/api/schemas/settings.ts';
import { Refusal, type Handler } from './fake-api.ts';
import { mount as mountWith } from './mount.tsx';

afterEach(cleanup);

const draft = (patch: Partial<ReturnType<typeof emptyDraft>>) => ({
  ...emptyDraft(),
  name: 'Work',
  baseUrl: 'https://gw.example.com',
  ...patch,
});

describe('checkProfile', () => {
  it('starts from the interface’s names and accepts a complete profile', () => {
    const check = checkProfile(draft({ headers: [headerRow('X-Route', 'eu')] }), []);
    expect(check.errors).toEqual({});
    expect(check.profile).toEqual({
      name: 'Work',
      baseUrl: 'https://gw.example.com',
      headers: [{ name: 'X-Route', value: 'eu' }],
      requestIdHeader: 'X-Svc-Request-Id',
      advancedSegment: 'svc',
      partialKey: 'svc_partial',
      multipartImageField: 'auto',
    });
  });

  it('keeps a header the service has by its id when its value is left empty', () => {
    const kept = headerRow('X-Key', '', { id: '0123456789ab', last4: 'wxyz' });
    expect(checkProfile(draft({ headers: [kept] }), []).profile?.headers).toEqual([
      { name: 'X-Key', id: '0123456789ab' },
    ]);
    const replaced = { ...kept, value: 'pk-new-value' };
    expect(checkProfile(draft({ headers: [replaced] }), []).profile?.headers).toEqual([
      { name: 'X-Key', value: 'pk-new-value' },
    ]);
    // a new header needs its value
    const bare = checkProfile(draft({ headers: [headerRow('X-New', '')] }), []);
    expect(bare.profile).toBeNull();
    expect(Object.values(bare.headerErrors)).toEqual([
      'Enter this header’s value, or remove the row.',
    ]);
  });

  it('refuses what the service would, field by field', () => {
    const bad = checkProfile(
      draft({
        name: ' Home ',
        baseUrl: 'ftp://gw.example.com',
        headers: [
          headerRow('authorization', 'Bearer sk-x'),
          headerRow('X Route', 'a'),
          headerRow('Content-Length', '1'),
          headerRow('', 'orphan'),
          headerRow('', ''),
        ],
        advancedSegment: 'a/b',
      }),
      ['Home'],
    );
    expect(bad.profile).toBeNull();
    expect(bad.errors.name).toBe('Another gateway is named "Home".');
    expect(bad.errors.baseUrl).toBe('The base URL must start with http:// or https://.');
    expect(bad.errors.advancedSegment).toContain('single path word');
    expect(Object.values(bad.headerErrors)).toEqual([
      'Atelier sends the key itself: remove the Authorization header.',
      '"X Route" is not a header name: letters, digits and - only, no spaces or colons.',
      'Atelier sets Content-Length itself: remove it.',
      'Name this header, or remove the row.',
    ]);
    const twice = checkProfile(
      draft({ headers: [headerRow('X-A', '1'), headerRow('x-a', '2')] }),
      [],
    );
    expect(Object.values(twice.headerErrors)).toEqual(['x-a is given twice: keep one.']);
  });
});

/**
 * The settings as the service answers a patch: a header given a value gets an id, and only its
 * last four characters come back; one sent with its id keeps what was there.
 */
function answer(settings: Settings, patch: SettingsPatch): Settings {
  const before = new Map(settings.profiles.flatMap((p) => p.headers.map((h) => [h.id, h])));
  let next = 0;
  const profiles = patch.profiles?.map((profile) => ({
    ...profile,
    headers: (profile.headers ?? []).map((header) =>
      'value' in header
        ? {
            name: header.name,
            id: `00000000000${next++}`,
            last4: header.value.slice(-4),
            source: 'memory' as const,
          }
        : { ...before.get(header.id)!, name: header.name },
    ),
  }));
  return SettingsSchema.parse({ ...settings, ...patch, ...(profiles ? { profiles } : {}) });
}

/** The Gateway section over a store whose settings.update answers like the service. */
function mountGateway(refuse?: string, initial: Settings = SettingsSchema.parse({})) {
  const patches: SettingsPatch[] = [];
  let settings: Settings = initial;
  const handlers: Record<string, Handler> = {
    'settings.update': (patch: SettingsPatch) => {
      patches.push(patch);
      if (refuse) throw new Refusal({ code: 'settings-invalid', message: refuse });
      settings = answer(settings, patch);
      return settings;
    },
    'app.info': () => ({}),
  };
  function Screen() {
    const current = useSettings().data;
    return current ? <GatewaySection settings={current} /> : null;
  }
  const mounted = mountWith(<Screen />, {
    ...handlers,
    'settings.get': () => settings,
    'key.status': () => ({ set: false, last4: null, source: null, storable: true, refusal: null }),
  });
  return { patches, data: mounted.data };
}

describe('the gateway profile form', () => {
  it('checks fields as they are typed, next to each field, and saves a valid profile', async () => {
    const { patches, data } = mountGateway();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add gateway' }));
    const form = screen.getByRole('form', { name: 'New gateway' });
    const url = within(form).getByLabelText<HTMLInputElement>('Base URL');
    await user.type(url, 'gw.example.com');
    const urlError = within(form).getByText('The base URL must start with http:// or https://.');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')?.split(' ')).toContain(urlError.id);
    // the name was not touched yet: no error under it
    expect(within(form).queryByText('Give the gateway a name.')).toBeNull();

    await user.clear(url);
    await user.type(url, 'http://127.0.0.1:4010');
    expect(within(form).queryByText(/must start with http/)).toBeNull();
    await user.type(within(form).getByLabelText('Name'), 'Simulator');
    await user.click(within(form).getByRole('button', { name: 'Add header' }));
    await user.type(within(form).getByLabelText('Header 1 name'), 'Authorization');
    expect(
      within(form).getByText('Atelier sends the key itself: remove the Authorization header.'),
    ).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Save gateway' }));
    expect(patches).toEqual([]); // nothing is sent while a field is wrong

    await user.clear(within(form).getByLabelText('Header 1 name'));
    await user.type(within(form).getByLabelText('Header 1 name'), 'X-Route');
    await user.type(within(form).getByLabelText('Header 1 value'), 'eu');
    // the interface's names are there, under Advanced
    expect(within(form).getByLabelText<HTMLInputElement>('Request-id header').value).toBe(
      'X-Svc-Request-Id',
    );
    expect(within(form).getByLabelText<HTMLInputElement>('Advanced path segment').value).toBe(
      'svc',
    );
    expect(within(form).getByLabelText<HTMLInputElement>('Partial-success key').value).toBe(
      'svc_partial',
    );
    // a gateway that reads the edited picture only as image[], whatever the count
    await user.selectOptions(
      within(form).getByRole('combobox', { name: 'Picture field in an edit' }),
      'Always image[]',
    );
    await user.click(within(form).getByRole('button', { name: 'Save gateway' }));
    expect(patches).toEqual([
      {
        profiles: [
          {
            name: 'Simulator',
            baseUrl: 'http://127.0.0.1:4010',
            headers: [{ name: 'X-Route', value: 'eu' }],
            requestIdHeader: 'X-Svc-Request-Id',
            advancedSegment: 'svc',
            partialKey: 'svc_partial',
            multipartImageField: 'image[]',
          },
        ],
      },
    ]);
    await screen.findByRole('radio', { name: /Simulator/ });
    expect(screen.queryByRole('form', { name: 'New gateway' })).toBeNull();

    await user.click(screen.getByRole('radio', { name: /Simulator/ }));
    expect(patches.at(-1)).toEqual({ gateway: { kind: 'remote', profile: 'Simulator' } });
    await waitFor(() =>
      expect(data.queries.getQueryData<Settings>(keys.settings())?.gateway).toEqual({
        kind: 'remote',
        profile: 'Simulator',
      }),
    );
  });

  it('shows the service’s refusal in the form', async () => {
    mountGateway('Two gateways are named "Work": rename one.');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add gateway' }));
    const form = screen.getByRole('form', { name: 'New gateway' });
    await user.type(within(form).getByLabelText('Name'), 'Work');
    await user.type(within(form).getByLabelText('Base URL'), 'https://gw.example.com');
    await user.click(within(form).getByRole('button', { name: 'Save gateway' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Two gateways are named "Work": rename one.',
    );
  });

  it('shows a kept header masked, and adds, replaces and removes headers without the old value', async () => {
    const initial = SettingsSchema.parse({
      gateway: { kind: 'remote', profile: 'Portkey' },
      profiles: [
        {
          name: 'Portkey',
          baseUrl: 'https://api.portkey.example',
          headers: [
            { name: 'X-Portkey-Api-Key', id: 'aaaaaaaaaaaa', last4: '9f8e', source: 'stored' },
            { name: 'X-Route', id: 'bbbbbbbbbbbb', last4: null, source: null },
          ],
        },
        { name: 'Other', baseUrl: 'https://other.example', headers: [] },
      ],
    });
    const { patches } = mountGateway(undefined, initial);
    const user = userEvent.setup();
    // (the settings come from their query: the section shows once they are read)
    expect(
      (await screen.findByRole('radio', { name: /Portkey/ })).closest('label')?.textContent,
    ).toContain('2 extra headers');
    await user.click(screen.getByRole('button', { name: 'Edit Portkey' }));
    const form = screen.getByRole('form', { name: 'Edit “Portkey”' });
    const first = within(form).getByLabelText<HTMLInputElement>('Header 1 value');
    // the value itself never reached the page: the field is empty, its last four are shown
    expect(first.value).toBe('');
    expect(first.type).toBe('password');
    expect(first.placeholder).toBe('kept, ends in 9f8e');
    expect(within(form).getByLabelText<HTMLInputElement>('Header 2 value').placeholder).toBe(
      'not set here: enter it',
    );

    // keep the first, replace the second, remove nothing yet, add a third
    await user.type(within(form).getByLabelText('Header 2 value'), 'eu-west');
    await user.click(within(form).getByRole('button', { name: 'Add header' }));
    await user.type(within(form).getByLabelText('Header 3 name'), 'X-Team');
    await user.type(within(form).getByLabelText('Header 3 value'), 'art');
    await user.click(within(form).getByRole('button', { name: 'Save gateway' }));
    expect(patches.at(-1)?.profiles).toEqual([
      {
        name: 'Portkey',
        baseUrl: 'https://api.portkey.example',
        headers: [
          { name: 'X-Portkey-Api-Key', id: 'aaaaaaaaaaaa' },
          { name: 'X-Route', value: 'eu-west' },
          { name: 'X-Team', value: 'art' },
        ],
        requestIdHeader: 'X-Svc-Request-Id',
        advancedSegment: 'svc',
        partialKey: 'svc_partial',
        multipartImageField: 'auto',
      },
      // the other profile goes back as it was, its headers by id
      {
        name: 'Other',
        baseUrl: 'https://other.example',
        headers: [],
        requestIdHeader: 'X-Svc-Request-Id',
        advancedSegment: 'svc',
        partialKey: 'svc_partial',
        multipartImageField: 'auto',
      },
    ]);

    // then remove the upstream key: it is simply left out
    await user.click(await screen.findByRole('button', { name: 'Edit Portkey' }));
    const again = screen.getByRole('form', { name: 'Edit “Portkey”' });
    await user.click(within(again).getByRole('button', { name: 'Remove header 1' }));
    await user.click(within(again).getByRole('button', { name: 'Save gateway' }));
    expect(patches.at(-1)?.profiles?.[0]?.headers).toEqual([
      { name: 'X-Route', id: '000000000000' },
      { name: 'X-Team', id: '000000000001' },
    ]);
  });
});
