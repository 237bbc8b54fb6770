import { describe, expect, it } from 'vitest';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import { ConfigError, UsageError } from '../../../main/cli/command.ts';
import { DEMO_NOTICE, settingsPlan } from '../../../main/cli/run/settings.ts';

const fresh = Settings.parse({});
const saved = Settings.parse({
  gateway: { kind: 'remote', profile: 'Work' },
  profiles: [
    {
      name: 'Work',
      baseUrl: 'https://gw.example',
      requestIdHeader: 'X-Req',
      headers: [
        { name: 'X-Route', id: '0123456789ab' },
        { name: 'X-Team', id: 'ba9876543210' },
      ],
    },
  ],
  library: '/data/lib',
  concurrency: 16,
});

describe('settingsPlan', () => {
  it('uses the demo on a folder where no gateway was chosen, and says so', () => {
    expect(settingsPlan({}, fresh, '/home/ada/work')).toEqual({
      // the library is named for good at the first run: the app finds it there next
      patch: { library: '/home/ada/work/atelier-library' },
      demo: true,
      notice: DEMO_NOTICE,
      library: '/home/ada/work/atelier-library',
    });
    // asked for, it is no surprise
    expect(settingsPlan({ demo: true }, fresh, '/w').notice).toBeNull();
  });

  it('carries on with the data folder’s gateway and library when no flag says otherwise', () => {
    expect(settingsPlan({}, saved, '/anywhere')).toEqual({
      patch: null,
      demo: false,
      notice: null,
      library: '/data/lib',
    });
  });

  it('saves the flags given, and only those', () => {
    const plan = settingsPlan(
      { concurrency: 2, manifest: true, template: '{batch}/{index}.{ext}' },
      saved,
      '/w',
    );
    expect(plan.patch).toEqual({
      concurrency: 2,
      manifest: true,
      template: '{batch}/{index}.{ext}',
    });
  });

  it('--gateway URL is the "Command line" profile, chosen; the other profiles stay as they are', () => {
    const plan = settingsPlan(
      { gateway: 'https://user:sk-live-4f8a2c9e@gw2.example:8443/v1', headers: { 'X-A': '1' } },
      saved,
      '/w',
    );
    expect(plan.demo).toBe(false);
    expect(plan.patch).toEqual({
      gateway: { kind: 'remote', profile: 'Command line' },
      profiles: [
        {
          ...saved.profiles[0],
          headers: [
            { name: 'X-Route', id: '0123456789ab' },
            { name: 'X-Team', id: 'ba9876543210' },
          ],
        },
        {
          name: 'Command line',
          // credentials in the address are never sent, saved or printed
          baseUrl: 'https://gw2.example:8443/v1',
          headers: [{ name: 'X-A', value: '1' }],
        },
      ],
    });
  });

  it('--header alone replaces the chosen gateway’s header of that name, keeping the others', () => {
    const plan = settingsPlan({ headers: { 'x-route': 'us' } }, saved, '/w');
    expect(plan.patch?.profiles?.[0]?.headers).toEqual([
      { name: 'X-Team', id: 'ba9876543210' },
      { name: 'x-route', value: 'us' },
    ]);
    expect(plan.patch?.gateway).toBeUndefined();
  });

  it('refuses --demo with --gateway, and --header with the demo', () => {
    expect(() => settingsPlan({ demo: true, gateway: 'http://x' }, fresh, '/w')).toThrow(
      /not both/,
    );
    expect(() => settingsPlan({ demo: true, headers: { A: 'b' } }, fresh, '/w')).toThrow(
      /--header is for a real gateway/,
    );
    expect(() => settingsPlan({ headers: { A: 'b' } }, fresh, '/w')).toThrow(UsageError);
    expect(() => settingsPlan({ gateway: 'ftp://x' }, fresh, '/w')).toThrow(
      /--gateway ftp:\/\/x: The base URL must start with http/,
    );
  });

  it('keeps one library per data folder', () => {
    expect(settingsPlan({ out: '/data/lib' }, saved, '/w')).toMatchObject({
      library: '/data/lib',
      patch: null,
    });
    expect(settingsPlan({ demo: true, out: 'lib' }, fresh, '/data')).toMatchObject({
      library: '/data/lib',
      patch: { gateway: { kind: 'demo' }, library: '/data/lib' },
    });
    expect(() => settingsPlan({ out: '/elsewhere' }, saved, '/w')).toThrow(ConfigError);
  });

  it('refuses a bad file name template as a usage error', () => {
    expect(() => settingsPlan({ demo: true, template: 'x.png' }, fresh, '/w')).toThrow(
      /--template: .*must end with "\.\{ext\}"/,
    );
  });
});
