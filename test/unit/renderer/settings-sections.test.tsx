// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LibrarySection } from '../../../renderer/src/screens/settings/LibrarySection.tsx';
import { checkModelText } from '../../../renderer/src/screens/settings/model-draft.ts';
import { ModelsSection } from '../../../renderer/src/screens/settings/ModelsSection.tsx';
import { QueueSection } from '../../../renderer/src/screens/settings/QueueSection.tsx';
import type { SettingsPatch } from '../../../renderer/src/data/types.ts';
import { SettingsView as Settings } from '../../../shared/api/schemas/settings.ts';
import { builtInModels } from '../../../shared/gateway/catalogue.ts';
import { Refusal, type Handler } from './fake-api.ts';
import { mount as mountWith } from './mount.tsx';

afterEach(cleanup);

const settings = Settings.parse({});

function mount(node: ReactNode, handlers: Record<string, Handler>) {
  return mountWith(node, { 'settings.get': () => settings, ...handlers });
}

describe('checkModelText', () => {
  it('checks an entry as models.json does, and one entry per id', () => {
    expect(checkModelText('{"kind": "image"', []).error).toMatch(/^Not JSON yet/);
    expect(checkModelText('{"kind": "image"}', []).error).toBe(
      'id: missing (a string is expected)',
    );
    expect(checkModelText('{"kind": "image", "id": "m"}', []).error).toMatch(/^protocol: /);
    expect(checkModelText('{"kind": "text", "id": "m"}', ['m']).error).toBe(
      'You already have an entry for "m": edit that one.',
    );
    expect(checkModelText('{"kind": "text", "id": "m"}', []).entry).toEqual({
      kind: 'text',
      id: 'm',
    });
  });
});

describe('the models section', () => {
  it('adds an entry checked as it is typed, saving every own entry', async () => {
    const saved: unknown[][] = [];
    const builtIns = builtInModels().map((entry) => ({ entry, origin: 'built-in' as const }));
    mount(<ModelsSection settings={settings} />, {
      'models.catalogue': () => ({ entries: builtIns }),
      'models.saveUserEntries': ({ entries }: { entries: unknown[] }) => {
        saved.push(entries);
        return {
          entries: [...builtIns, ...entries.map((entry) => ({ entry, origin: 'user' }))],
        };
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add model' }));
    const form = screen.getByRole('form', { name: 'New model entry' });
    const text = within(form).getByLabelText('Entry (JSON, the fields of models.json)');
    await user.clear(text);
    await user.type(text, '{{"kind": "video", "id": "veo"');
    expect(within(form).getByText(/^Not JSON yet/).id).toBe(text.getAttribute('aria-describedby'));
    expect(
      within(form).getByRole<HTMLButtonElement>('button', { name: 'Save model' }).disabled,
    ).toBe(true);
    await user.type(text, '}');
    await user.click(within(form).getByRole('button', { name: 'Save model' }));
    expect(saved).toEqual([
      [{ kind: 'video', id: 'veo', submitPath: 'videos', seconds: [], sizes: [] }],
    ]);
    const row = await screen.findByRole('row', { name: /veo/ });
    expect(within(row).getByText('Yours')).toBeTruthy();
  });
});

describe('the library section', () => {
  it('shows the service’s refusal to move the library next to the folder', async () => {
    const busy = 'Images are still being made or written: pause the queue and wait.';
    mount(<LibrarySection settings={settings} />, {
      'library.info': () => ({ libraryDir: '/lib', dataDir: '/data', example: 'a/0001-x.png' }),
      'library.setLocation': () => {
        throw new Refusal({ code: 'library-busy', message: busy });
      },
      'library.previewTemplate': ({ template }: { template: string }) => ({
        example: template.replace('{ext}', 'png'),
      }),
    });
    const user = userEvent.setup();
    const folder = screen.getByLabelText<HTMLInputElement>('Folder');
    await screen.findByDisplayValue('/lib');
    await user.clear(folder);
    await user.type(folder, '/elsewhere');
    await user.click(screen.getByRole('button', { name: 'Use this folder' }));
    const error = await screen.findByText(busy);
    expect(folder.getAttribute('aria-describedby')).toContain(error.id);

    await user.type(screen.getByLabelText('File name template'), 'x{{model}.{{ext}');
    expect((await screen.findByText('x{model}.png')).tagName).toBe('CODE');
  });
});

describe('the queue section', () => {
  it('refuses a concurrency out of range and applies the limits', async () => {
    const patches: SettingsPatch[] = [];
    mount(<QueueSection settings={settings} />, {
      'settings.update': (patch: SettingsPatch) => {
        patches.push(patch);
        return Settings.parse({ ...settings, ...patch });
      },
    });
    const user = userEvent.setup();
    const apply = screen.getByRole<HTMLButtonElement>('button', { name: 'Apply limits' });
    expect(apply.disabled).toBe(true); // nothing changed yet
    const concurrency = screen.getByLabelText('Requests at once');
    await user.clear(concurrency);
    await user.type(concurrency, '2000');
    expect(screen.getByText('A whole number from 1 to 1024.')).toBeTruthy();
    expect(apply.disabled).toBe(true);
    await user.clear(concurrency);
    await user.type(concurrency, '4');
    await user.type(screen.getByLabelText('Requests per minute, at most'), '120');
    await user.click(apply);
    expect(patches).toEqual([{ concurrency: 4, requestsPerMinute: 120 }]);
  });
});
