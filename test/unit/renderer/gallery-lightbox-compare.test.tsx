// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Compare } from '../../../renderer/src/screens/gallery/lightbox/Compare.tsx';
import type { Handler } from './fake-api.ts';
import { mount } from './mount.tsx';
import { detail } from './gallery-lightbox-fixtures.ts';

afterEach(cleanup);

function mountCompare(ids: number[]) {
  const onClose = vi.fn();
  mount(<Compare ids={ids} onClose={onClose} />, {
    'images.get': (({ id }: { id: number }) =>
      detail({
        id,
        prompt: `prompt of ${id}`,
        model: `model-${id}`,
        relPath: `b/${id}.png`,
      })) as Handler,
  });
  return { onClose, user: userEvent.setup() };
}

describe('Compare', () => {
  it('shows each image in its own labelled pane', async () => {
    mountCompare([1, 2, 3]);
    const dialog = screen.getByRole('dialog', { name: 'Compare 3 images' });
    await waitFor(() => expect(within(dialog).getAllByRole('img')).toHaveLength(3));
    const panes = within(dialog).getAllByRole('figure');
    expect(panes.map((p) => p.getAttribute('aria-label'))).toEqual([
      'A · prompt of 1 · model-1 · 1024×768 · seed 42',
      'B · prompt of 2 · model-2 · 1024×768 · seed 42',
      'C · prompt of 3 · model-3 · 1024×768 · seed 42',
    ]);
    // the caption tells which is which by its prompt, whole in its title when cut
    expect(within(panes[0]!).getByTitle('prompt of 1')).toBeTruthy();
    expect(within(panes[1]!).getByRole('img').getAttribute('src')).toBe('/image/b/2.png');
    expect(screen.queryByRole('button', { name: 'Slider' })).toBeNull();
  });

  it('zooms every pane alike', async () => {
    // happy-dom lays nothing out: every pane measures 400×300
    const box = { left: 0, top: 0, width: 400, height: 300 } as DOMRect;
    const measure = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(box);
    try {
      const { user } = mountCompare([1, 2, 3, 4]);
      await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(4));
      const transforms = () => screen.getAllByRole('img').map((img) => img.style.transform);
      const readout = () => screen.getByRole('status', { name: 'Zoom' }).textContent;
      const fitted = transforms()[0];
      // 352×252 inside the margin: the 1024×768 picture fits at 252/768
      expect(fitted).toBe(`translate(32px, 24px) scale(${252 / 768})`);
      expect(readout()).toBe('Fit');
      await user.click(screen.getByRole('button', { name: 'Zoom in' }));
      expect(transforms()[0]).not.toBe(fitted);
      expect(new Set(transforms()).size).toBe(1);
      expect(readout()).toBe('41%');
    } finally {
      measure.mockRestore();
    }
  });

  it('puts two one over the other with a divider moved by keys', async () => {
    const { user } = mountCompare([1, 2]);
    const slider = await screen.findByRole('button', { name: 'Slider' });
    await waitFor(() => expect(slider.hasAttribute('disabled')).toBe(false));
    expect(slider.getAttribute('aria-pressed')).toBe('false');
    await user.click(slider);
    expect(slider.getAttribute('aria-pressed')).toBe('true');
    const divider = screen.getByRole('slider', { name: 'Divider between A and B' });
    expect(divider.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getAllByRole('img')).toHaveLength(2);
    divider.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(divider.getAttribute('aria-valuenow')).toBe('60');
    await user.keyboard('{Home}');
    expect(divider.getAttribute('aria-valuenow')).toBe('0');
    const top = screen.getAllByRole('img')[1]!.parentElement!;
    expect(top.style.clipPath).toBe('inset(0 0 0 0%)');
    await user.click(slider);
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.getAllByRole('figure')).toHaveLength(2);
  });

  it('closes on Escape', async () => {
    const { onClose, user } = mountCompare([1, 2]);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
