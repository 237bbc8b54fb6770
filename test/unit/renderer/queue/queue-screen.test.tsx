// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueScreen } from '../../../../renderer/src/screens/queue/QueueScreen.tsx';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/index.ts';
import { StoreContext } from '../../../../renderer/src/store/react.ts';
import { giveElementsASize } from '../sized-elements.ts';
import { batch, fakeApi, job, progress, type Fake, type Handler } from '../fake-api.ts';

afterEach(cleanup);

giveElementsASize();

function mount(handlers: Record<string, Handler> = {}): { fake: Fake; store: AppStore } {
  const fake = fakeApi({
    'batches.get': ({ id }: { id: number }) => ({
      ...batch(id),
      failures: {},
      partial: 0,
      expiredLinks: 0,
      requests: 0,
      defaults: {},
      folder: '/library',
    }),
    ...handlers,
  });
  const store = createAppStore(fake.api);
  render(
    <StoreContext value={store}>
      <QueueScreen />
    </StoreContext>,
  );
  return { fake, store };
}

function withBatch(store: AppStore, summary = batch(1, { queued: 3, failed: 2 })) {
  store.setState({ batches: new Map([[summary.id, summary]]), batchIds: [summary.id] });
}

describe('the queue screen', () => {
  it('teaches what to do when there is nothing in the queue', () => {
    mount();
    const link = screen.getByRole('link', { name: 'Compose a batch' });
    expect(link.getAttribute('href')).toBe('#/compose');
  });

  it('says why the queue paused, what to do, and resumes', async () => {
    const { fake, store } = mount({ 'queue.resume': () => null });
    store.setState({
      engine: 'running',
      paused: { kind: 'auth', reason: 'The gateway refused the key (401).', code: 'invalid_key' },
      progress: progress({ queued: 5 }),
    });
    const banner = await screen.findByRole('region', { name: 'Queue paused' });
    expect(banner.textContent).toContain('Check the key in Settings');
    expect(banner.textContent).toContain('refused the key (401)');
    await userEvent.click(within(banner).getByRole('button', { name: 'Resume' }));
    expect(fake.calls.map((c) => c.name)).toContain('queue.resume');
  });

  it('cancels a batch only after the confirmation', async () => {
    const { fake, store } = mount({ 'batches.cancel': () => ({ canceled: 3 }) });
    withBatch(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel batch 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel “batch 1”?' });
    expect(fake.calls.some((c) => c.name === 'batches.cancel')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel batch' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'batches.cancel')?.input).toEqual({ id: 1 }),
    );
  });

  it('selects jobs by click and shift-click, and retries them anyway after the warning', async () => {
    const jobs = [job(1, 'failed'), job(2, 'failed'), job(3, 'failed'), job(4, 'queued')].map(
      (j) => (j.state === 'failed' ? { ...j, failureKind: 'uncertain' as const } : j),
    );
    const { fake, store } = mount({
      'jobs.ids': () => ({ ids: jobs.map((j) => j.id), next: null, total: jobs.length }),
      'jobs.byIds': ({ ids }: { ids: number[] }) => jobs.filter((j) => ids.includes(j.id)),
      'jobs.get': ({ id }: { id: number }) => ({
        ...jobs.find((j) => j.id === id)!,
        params: { model: 'gpt-image-1' },
        stateReason: null,
        lastUpstreamRequestId: null,
        retryOf: null,
        images: [],
        transitions: [],
      }),
      'jobs.attempts': () => ({ items: [], next: null }),
      'jobs.retry': ({ ids }: { ids: number[] }) => ({ changed: ids.length }),
    });
    withBatch(store);
    await userEvent.click(await screen.findByRole('button', { name: 'Show jobs of batch 1' }));
    const list = await screen.findByRole('listbox', { name: 'Jobs' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(4));
    await waitFor(() => expect(list.textContent).toContain('prompt 3'));
    const [first, , third] = within(list).getAllByRole('option');
    await userEvent.click(first!);
    const user = userEvent.setup();
    await user.keyboard('{Shift>}');
    await user.click(third!);
    await user.keyboard('{/Shift}');
    expect(within(list).getAllByRole('option', { selected: true })).toHaveLength(3);
    expect(screen.getByRole('toolbar', { name: 'Selected jobs' }).textContent).toContain(
      '3 selected',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retry anyway…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry 3 jobs anyway?' });
    expect(dialog.textContent).toContain('may have finished and been charged');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry anyway' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'jobs.retry')?.input).toEqual({
        ids: [1, 2, 3],
        anyway: true,
      }),
    );
  });
});
