// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsView as Settings } from '../../../shared/api/schemas/settings.ts';
import { builtInModels } from '../../../shared/gateway/catalogue.ts';
import { ComposeScreen } from '../../../renderer/src/screens/compose/ComposeScreen.tsx';
import { batch, type Handler } from './fake-api.ts';
import { mount } from './mount.tsx';

afterEach(cleanup);

const catalogue = () => ({
  entries: builtInModels().map((entry) => ({ entry, origin: 'built-in' as const })),
});
const okCheck = (input: { source: { kind: string; rows?: unknown[] } }) => {
  const jobs = input.source.rows?.length ?? 1;
  return { jobs, images: jobs, errors: [], bad: 0, models: {} };
};

/** Compose over a fake service; it starts with `start` chosen (the settings' starting model). */
async function mountCompose(
  handlers: Record<string, Handler> = {},
  prices = {},
  start: string | null = 'flux-schnell',
) {
  const mounted = mount(<ComposeScreen />, {
    'models.catalogue': catalogue,
    'batches.check': okCheck as Handler,
    'settings.get': () => Settings.parse({ prices, defaultModel: start }),
    ...handlers,
  });
  if (start) {
    const box = await screen.findByRole('checkbox', { name: start });
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
  }
  await waitFor(() => expect(mounted.ui.compose.getState().ready).toBe(true));
  return { ...mounted, user: userEvent.setup() };
}

const prompts = () => screen.getByRole('textbox', { name: 'Prompts or templates' });
const type = (text: string) => fireEvent.change(prompts(), { target: { value: text } });
const runButton = () => screen.getByRole('button', { name: /^Run Ctrl/ });

describe('Compose', () => {
  it('teaches with an example when empty, and says why Run is disabled', async () => {
    const { user } = await mountCompose();
    expect(runButton().hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('list', { name: 'Why Run is disabled' }).textContent).toContain(
      'Type a prompt or open a prompt file.',
    );
    await user.click(screen.getByRole('button', { name: 'Use the example' }));
    expect((prompts() as HTMLTextAreaElement).value).toContain('{red|blue|green}');
    expect(screen.getByRole('textbox', { name: /Values for/ })).toBeTruthy();
  });

  it('expands a template by the matrix, estimates it, and runs it as rows', async () => {
    const { fake, user } = await mountCompose({ 'batches.create': () => batch(7, { queued: 8 }) });
    type('a {red|blue} {fox|owl}');
    fireEvent.change(screen.getByRole('textbox', { name: 'Sizes' }), {
      target: { value: '256x256' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /^Seeds/ }), {
      target: { value: '1, 2' },
    });
    expect(screen.getByLabelText('Job count').textContent).toBe('8 jobs · 8 images');
    expect(screen.getByLabelText('Estimated total').textContent).toContain('2,400 quota units');
    await waitFor(() => expect(runButton().hasAttribute('disabled')).toBe(false));
    await user.click(runButton());
    await waitFor(() => expect(fake.calls.some((c) => c.name === 'batches.create')).toBe(true));
    const create = fake.calls.find((c) => c.name === 'batches.create')!.input as {
      source: { kind: string; rows: unknown[] };
      position: string;
    };
    expect(create.position).toBe('back');
    expect(create.source.rows).toHaveLength(8);
    expect(create.source.rows[1]).toEqual({
      prompt: 'a red fox',
      model: 'flux-schnell',
      size: '256x256',
      seed: 2,
      n: 1,
    });
    // the composer keeps its content after a run
    expect((prompts() as HTMLTextAreaElement).value).toBe('a {red|blue} {fox|owl}');
  });

  it('runs at the front with Ctrl+Shift+Enter, from the text box', async () => {
    const { fake, user } = await mountCompose({ 'batches.create': () => batch(8, { queued: 1 }) });
    type('a fox');
    await waitFor(() => expect(runButton().hasAttribute('disabled')).toBe(false));
    await user.click(prompts());
    await user.keyboard('{Control>}{Shift>}{Enter}{/Shift}{/Control}');
    await waitFor(() => expect(fake.calls.some((c) => c.name === 'batches.create')).toBe(true));
    expect(fake.calls.filter((c) => c.name === 'batches.create')).toHaveLength(1);
    expect(fake.calls.find((c) => c.name === 'batches.create')!.input).toMatchObject({
      position: 'front',
      source: { kind: 'rows', rows: [{ prompt: 'a fox', model: 'flux-schnell', n: 1 }] },
    });
  });

  it('past 10,000 jobs warns and sends the jobs as JSON Lines text', async () => {
    const { fake } = await mountCompose();
    const ten = '{0|1|2|3|4|5|6|7|8|9}';
    type(`${ten}${ten}${ten}${ten} {a|b}`); // 20,000 prompts
    expect(screen.getByLabelText('Job count').textContent).toBe('20,000 jobs · 20,000 images');
    expect(screen.getByRole('note').textContent).toContain('past 10,000');
    await waitFor(() => expect(fake.calls.some((c) => c.name === 'batches.check')).toBe(true));
    const { source } = fake.calls.find((c) => c.name === 'batches.check')!.input as {
      source: { kind: string; fileName: string; text: string };
    };
    expect(source.kind).toBe('text');
    expect(source.fileName).toBe('composed.jsonl');
    expect(source.text.split('\n')).toHaveLength(20_000);
  });

  it('shows template errors by line and column, and fills variables from typed values', async () => {
    await mountCompose();
    type('a fox\nan {owl|cat');
    expect(screen.getByRole('list', { name: 'Template errors' }).textContent).toContain(
      'Line 2, column 4',
    );
    type('{subject} at dusk');
    const values = screen.getByRole('textbox', { name: /Values for/ });
    fireEvent.change(values, { target: { value: 'a boat\na walker' } });
    await userEvent.setup().click(await screen.findByRole('checkbox', { name: 'flux-pro' }));
    // two prompts, each for flux-schnell (the starting model) and flux-pro
    expect(screen.getByLabelText('Job count').textContent).toBe('4 jobs · 4 images');
  });

  it('shows the estimate from settings prices, and unknown prices as such', async () => {
    const { ui } = await mountCompose({}, { 'flux-pro': { perImage: 10 } });
    act(() => ui.compose.getState().edit({ models: ['flux-pro', 'my-own-model'], ns: '2' }));
    type('a {red|blue} fox');
    expect(screen.getByLabelText('Job count').textContent).toBe('4 jobs · 8 images');
    const lines = screen.getByRole('list', { name: 'Estimate per model' }).textContent;
    expect(lines).toContain('flux-pro (default 1024x1024 · n 2): 4 images × 10 = 40');
    expect(lines).toContain('my-own-model (default 1024x1024 · n 2): 4 images × price unknown');
    expect(screen.getByLabelText('Estimated total').textContent).toBe(
      'Estimate 40 quota units + unknown',
    );
    // none priced: unknown, not "0 quota units + unknown", which reads as free
    act(() => ui.compose.getState().edit({ models: ['my-own-model'] }));
    expect(screen.getByLabelText('Estimated total').textContent).toBe('Estimate unknown');
  });

  it('shows only the parameters the chosen models take, and refuses what they would', async () => {
    const { user } = await mountCompose();
    await user.click(screen.getByRole('checkbox', { name: 'flux-schnell' }));
    await user.click(await screen.findByRole('checkbox', { name: 'dall-e-3' }));
    const quality = screen.getByRole('combobox', { name: 'Quality' });
    expect(
      within(quality)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Model default', 'standard', 'hd']);
    expect(screen.queryByRole('textbox', { name: /^Seeds/ })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Negative prompt/ })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Images each (n: 1 only)' })).toBeTruthy();
    expect(screen.getAllByRole('button', { pressed: false }).map((b) => b.textContent)).toEqual([
      '1024x1024',
      '1792x1024',
      '1024x1792',
    ]);

    await user.click(screen.getByRole('checkbox', { name: 'qwen-image' }));
    expect(screen.getByRole('textbox', { name: 'Seeds (qwen-image only)' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Negative prompt (qwen-image only)' })).toBeTruthy();
    // each model its own group: dall-e-3's quality, none for qwen-image, which takes none
    const dalle = screen.getByRole('group', { name: 'dall-e-3' });
    const qwen = screen.getByRole('group', { name: 'qwen-image' });
    expect(within(dalle).getByRole('combobox', { name: 'Quality' })).toBeTruthy();
    expect(within(qwen).queryByRole('combobox', { name: 'Quality' })).toBeNull();
    expect(
      within(within(dalle).getByRole('group', { name: 'Sizes of dall-e-3' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['1024x1024', '1792x1024', '1024x1792']);

    type('a fox');
    fireEvent.change(within(dalle).getByRole('textbox', { name: /^Images each/ }), {
      target: { value: '2' },
    });
    expect(screen.getByRole('list', { name: 'Problems' }).textContent).toContain(
      'Model dall-e-3 makes exactly 1 image per request; n = 2 was asked.',
    );
    expect(runButton().hasAttribute('disabled')).toBe(true);
  });

  it('checks a dropped file with the service and shows its errors by line; nothing is queued', async () => {
    const { fake, user } = await mountCompose({
      'batches.check': () => ({
        jobs: 2,
        images: 2,
        errors: [{ line: 3, message: 'the prompt is empty' }],
        bad: 1,
        models: { 'gpt-image-1': { jobs: 2, images: 2 } },
      }),
    });
    const file = new File(['prompt,model\na fox,gpt-image-1\n,gpt-image-1\n'], 'prompts.csv');
    await user.upload(screen.getByLabelText('Prompt file'), file);
    expect(await screen.findByText('prompts.csv')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Problems' }).textContent).toBe(
        'Line 3: The prompt is empty.',
      ),
    );
    expect(fake.calls.find((c) => c.name === 'batches.check')!.input).toEqual({
      source: {
        kind: 'text',
        fileName: 'prompts.csv',
        text: 'prompt,model\na fox,gpt-image-1\n,gpt-image-1\n',
      },
      // rows without a model take the chosen one
      defaults: { model: 'flux-schnell' },
    });
    expect(screen.getByRole('list', { name: 'Why Run is disabled' }).textContent).toBe(
      '1 row the service refuses.',
    );
    expect(runButton().hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove the file' }));
    expect(screen.getByRole('textbox', { name: 'Prompts or templates' })).toBeTruthy();
    expect(fake.calls.some((c) => c.name === 'batches.create')).toBe(false);
  });

  it('starts ready: twelve prompts pasted into a fresh Compose run with nothing else touched', async () => {
    const { fake, user } = await mountCompose(
      { 'batches.create': () => batch(9, { queued: 12 }) },
      {},
      null,
    );
    // no model used before, none in Settings: the catalogue's first image model
    const first = builtInModels().find((e) => e.kind === 'image')!.id;
    await waitFor(() =>
      expect((screen.getByRole('checkbox', { name: first }) as HTMLInputElement).checked).toBe(
        true,
      ),
    );
    type(Array.from({ length: 12 }, (_, i) => `a study of light, number ${i + 1}`).join('\n'));
    expect(screen.getByLabelText('Estimated total')).toBeTruthy();
    await waitFor(() => expect(runButton().hasAttribute('disabled')).toBe(false));
    await user.click(runButton());
    await waitFor(() => expect(fake.calls.some((c) => c.name === 'batches.create')).toBe(true));
    const { source } = fake.calls.find((c) => c.name === 'batches.create')!.input as {
      source: { rows: Array<{ model: string }> };
    };
    expect(source.rows).toHaveLength(12);
    expect(source.rows.every((row) => row.model === first)).toBe(true);
  });

  it('keeps the draft as it is typed, and reads it back in a new window', async () => {
    const saved: unknown[] = [];
    const { fake } = await mountCompose({
      'compose.saveDraft': ((record: unknown) => {
        saved.push(record);
        return null;
      }) as Handler,
    });
    type('a heron at dawn');
    await waitFor(() =>
      expect(saved.at(-1)).toMatchObject({
        draft: { text: 'a heron at dawn', models: ['flux-schnell'] },
      }),
    );
    expect(fake.calls.filter((c) => c.name === 'compose.saveDraft').length).toBeGreaterThan(0);
    cleanup();
    await mountCompose({ 'compose.draft': () => saved.at(-1) });
    expect((prompts() as HTMLTextAreaElement).value).toBe('a heron at dawn');
  });
});
