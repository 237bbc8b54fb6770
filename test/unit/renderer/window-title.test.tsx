// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WindowTitle } from '../../../renderer/src/frame/window-title.ts';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { StoreContext } from '../../../renderer/src/store/react.ts';
import { fakeApi, progress } from './fake-api.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the window title', () => {
  it('follows progress without re-rendering what holds it, the count at most once a second', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = createAppStore(fakeApi().api);
    let frameRenders = 0;
    function Frame() {
      frameRenders++;
      return <WindowTitle />;
    }
    render(
      <StoreContext value={store}>
        <Frame />
      </StoreContext>,
    );
    expect(document.title).toBe('Atelier');
    act(() => vi.advanceTimersByTime(1000));
    act(() => store.setState({ progress: progress({ succeeded: 1, queued: 99 }) }));
    expect(document.title).toBe('Atelier — 1 / 100 (1 %)');

    act(() => store.setState({ progress: progress({ succeeded: 2, queued: 98 }) }));
    act(() => store.setState({ progress: progress({ succeeded: 3, queued: 97 }) }));
    expect(document.title).toBe('Atelier — 1 / 100 (1 %)');
    act(() => vi.advanceTimersByTime(1000));
    expect(document.title).toBe('Atelier — 3 / 100 (3 %)');
    act(() => store.setState({ progress: progress({ succeeded: 4, queued: 96 }) }));
    act(() => store.setState({ progress: progress({ succeeded: 100 }) }));
    expect(document.title).toBe('Atelier');
    expect(frameRenders).toBe(1);
  });
});
