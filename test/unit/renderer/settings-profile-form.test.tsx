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
import { Settings as SettingsSchema } from '../../../shared/api/schemas/settings.ts';
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
      extraHeaders: { 'X-Route': 'eu' },
      requestIdHeader: 'X-Svc-Request-Id',
      advancedSegment: 'svc',
      partialKey: 'svc_partial',
    });
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

/** The Gateway section over a store whose settings.update answers like the service. */
function mountGateway(refuse?: string) {
  const patches: SettingsPatch[] = [];
  let settings: Settings = SettingsSchema.parse({});
  const handlers: Record<string, Handler> = {
    'settings.update': (patch: SettingsPatch) => {
      patches.push(patch);
      if (refuse) throw new Refusal({ code: 'settings-invalid', message: refuse });
      settings = SettingsSchema.parse({ ...settings, ...patch });
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
    await user.click(within(form).getByRole('button', { name: 'Save gateway' }));
    expect(patches).toEqual([
      {
        profiles: [
          {
            name: 'Simulator',
            baseUrl: 'http://127.0.0.1:4010',
            extraHeaders: { 'X-Route': 'eu' },
            requestIdHeader: 'X-Svc-Request-Id',
            advancedSegment: 'svc',
            partialKey: 'svc_partial',
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
});
