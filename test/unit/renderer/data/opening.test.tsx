// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAppInfo, useQueueState } from '../../../../renderer/src/data/app-queries.ts';
import { holdUntilOpened } from '../../../../renderer/src/data/opening.ts';
import { queueState } from '../fake-api.ts';
import { mount } from '../mount.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A part of the frame that reads the queue and the app's info, as the status bar does. */
function Reader() {
  const queue = useQueueState();
  const info = useAppInfo();
  return (
    <p>
      {queue.isPending ? 'queue pending' : 'queue read'},{' '}
      {info.isPending ? 'info pending' : 'info read'}
    </p>
  );
}

const handlers = {
  'queue.state': () => queueState(10),
  'app.info': () => ({ demo: true }),
};
const asked = (fake: ReturnType<typeof mount>['fake'], name: string) =>
  fake.calls.filter((c) => c.name === name).length;

describe("the frame's other reads while the opening gallery is shown", () => {
  it('waits until the gallery says it is shown, then reads', async () => {
    let shown!: () => void;
    holdUntilOpened(new Promise<void>((resolve) => (shown = resolve)));
    const { fake } = mount(<Reader />, handlers);
    await screen.findByText(/info read/); // what the frame shows from its first paint is not held
    expect(asked(fake, 'queue.state')).toBe(0);
    expect(screen.getByText(/queue pending/)).toBeTruthy();
    await act(async () => shown());
    await screen.findByText(/queue read/);
    expect(asked(fake, 'queue.state')).toBe(1);
  });

  it('reads anyway once the limit passes, whatever the opening screen does', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    holdUntilOpened(new Promise<void>(() => undefined), 1500);
    const { fake } = mount(<Reader />, handlers);
    await act(async () => vi.advanceTimersByTimeAsync(1400));
    expect(asked(fake, 'queue.state')).toBe(0);
    await act(async () => vi.advanceTimersByTimeAsync(200));
    vi.useRealTimers();
    await screen.findByText(/queue read/);
    expect(asked(fake, 'queue.state')).toBe(1);
  });

  it('reads at once in a window that held nothing back', async () => {
    const { fake } = mount(<Reader />, handlers);
    await screen.findByText(/queue read/);
    expect(asked(fake, 'queue.state')).toBe(1);
  });
});
