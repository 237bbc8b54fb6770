// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchProgress } from '../../../../renderer/src/screens/queue/BatchProgress.tsx';
import { batch } from '../fake-api.ts';

afterEach(cleanup);

describe("a batch's progress bar", () => {
  it('places each state after the one before it by transform, which the compositor animates', () => {
    render(
      <BatchProgress batch={batch(1, { succeeded: 50, failed: 10, running: 15, queued: 25 })} />,
    );
    const bar = screen.getByRole('img');
    expect(bar.getAttribute('aria-label')).toBe('50 succeeded, 10 failed, 15 running, 25 queued');
    const segments = [...bar.children].map((seg) => [
      seg.className,
      (seg as HTMLElement).style.transform,
      (seg as HTMLElement).style.width,
    ]);
    expect(segments).toEqual([
      ['seg seg-succeeded', 'translateX(0%) scaleX(0.5)', ''],
      ['seg seg-failed', 'translateX(50%) scaleX(0.1)', ''],
      ['seg seg-running', 'translateX(60%) scaleX(0.15)', ''],
      ['seg seg-queued', 'translateX(75%) scaleX(0.25)', ''],
    ]);
  });
});
