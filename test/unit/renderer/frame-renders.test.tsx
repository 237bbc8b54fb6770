// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Frame } from '../../../renderer/src/frame/Frame.tsx';
import { batch, progress, queueState } from './fake-api.ts';
import { mount } from './mount.tsx';

const renders = vi.hoisted(() => ({ queue: 0 }));
// the screen stands in for every screen: what matters is whether the frame renders it again
vi.mock('../../../renderer/src/screens/queue/QueueScreen.tsx', () => ({
  QueueScreen: () => {
    renders.queue++;
    return <p>the queue</p>;
  },
}));

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

describe('the frame under a running queue', () => {
  it('renders the screen once however many progress deliveries come; the status bar follows them', async () => {
    window.location.hash = '#/queue';
    const { emit } = mount(<Frame />, {
      'queue.state': () => queueState(100),
      'settings.get': () => ({ theme: 'system' }),
    });
    await screen.findByText('the queue');
    await screen.findByText(/0 done/);
    const before = renders.queue;
    for (let done = 1; done <= 5; done++) {
      emit([
        {
          type: 'progress',
          payload: {
            ...progress({ succeeded: done, queued: 100 - done }),
            paused: null,
            batches: [{ id: 1, jobs: batch(1).jobs, downloads: batch(1).downloads }],
          },
        },
      ]);
      // each delivery shown before the next, as they come a tenth of a second apart
      await screen.findByText(new RegExp(`^${done} done`));
    }
    expect(renders.queue).toBe(before);
  });
});
