// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../../renderer/src/api/client.ts';
import {
  Lightbox,
  type LightboxProps,
} from '../../../renderer/src/screens/gallery/lightbox/Lightbox.tsx';
import type { ImageDetail } from '../../../renderer/src/screens/gallery/lightbox/rerun-draft.ts';
import type { fakeApi } from './fake-api.ts';
import { Refusal, type Handler } from './fake-api.ts';
import { mount } from './mount.tsx';
import { detail } from './gallery-lightbox-fixtures.ts';

afterEach(() => {
  cleanup();
  window.location.hash = '';
});

const IDS = [11, 12, 13, 14];

function mountLightbox(
  options: {
    props?: Partial<LightboxProps>;
    handlers?: Record<string, Handler>;
    details?: Record<number, Partial<ImageDetail>>;
    host?: Client['host'];
  } = {},
) {
  const favorites = new Set<number>();
  const spies = { onIndexChange: vi.fn(), onClose: vi.fn() };
  // a grid's part: it owns the index, as the gallery does
  function Host() {
    const [index, setIndex] = useState(options.props?.index ?? 1);
    return (
      <Lightbox
        ids={IDS}
        total={1204}
        {...spies}
        {...options.props}
        index={index}
        onIndexChange={(i) => {
          spies.onIndexChange(i);
          setIndex(i);
        }}
      />
    );
  }
  const mounted = mount(
    <Host />,
    {
      'images.get': (({ id }: { id: number }) =>
        detail({
          id,
          prompt: `prompt of ${id}`,
          favorite: favorites.has(id),
          ...options.details?.[id],
        })) as Handler,
      'images.setFavorite': (({ ids, favorite }: { ids: number[]; favorite: boolean }) => {
        for (const id of ids) {
          if (favorite) favorites.add(id);
          else favorites.delete(id);
        }
        return { changed: ids.length };
      }) as Handler,
      ...options.handlers,
    },
    { host: options.host ?? 'desktop' },
  );
  return { ...mounted, spies, user: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog', { name: /^Image \d+ of/ });
const calls = (fake: ReturnType<typeof fakeApi>, name: string) =>
  fake.calls.filter((c) => c.name === name).map((c) => c.input);

describe('Lightbox', () => {
  it('is a dialog named by the position, showing the image and its details', async () => {
    mountLightbox();
    expect(dialog()).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Image 2 of 1,204' })).toBeTruthy();
    const img = await screen.findByRole('img', { name: 'prompt of 12' });
    expect(img.getAttribute('src')).toBe('/image/batch/img-7.png');
    const details = screen.getByRole('complementary', { name: 'Image details' });
    for (const text of ['prompt of 12', 'my-model', 'Foxes', 'req-1']) {
      expect(details.textContent).toContain(text);
    }
    // the size asked ("1024x768") and the pixels read alike
    expect(within(details).getAllByText('1024 × 768')).toHaveLength(2);
    expect(within(details).getByText('/lib/batch/img-7.png')).toBeTruthy();
    // a hash stays on one line, cut by the stylesheet: its whole value is its title
    const hash = within(details).getByText('ab'.repeat(32));
    expect(hash.getAttribute('title')).toBe('ab'.repeat(32));
    expect(hash.className).toBe('lb-token');
  });

  it('shows the blurred thumbnail and a Loading… cue until the picture has loaded', async () => {
    const box = { left: 0, top: 0, width: 560, height: 432 } as DOMRect;
    const measure = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(box);
    try {
      mountLightbox();
      const img = await screen.findByRole('img', { name: 'prompt of 12' });
      const stage = img.closest<HTMLElement>('.zoom-view')!;
      const thumb = () => stage.querySelector<HTMLImageElement>('img.zoom-placeholder');
      const cue = () => within(stage).queryByText('Loading…');
      await waitFor(() => expect(thumb()?.getAttribute('src')).toBe('/thumb/batch/img-7.png'));
      // drawn where the picture will be, blurred
      expect(thumb()!.style.transform).toBe(img.style.transform);
      expect(thumb()!.style.filter).toMatch(/^blur\(/);
      expect(cue()).toBeTruthy();
      Object.defineProperty(img, 'naturalWidth', { value: 1024 });
      Object.defineProperty(img, 'naturalHeight', { value: 768 });
      fireEvent.load(img);
      expect(thumb()).toBeNull();
      expect(cue()).toBeNull();
    } finally {
      measure.mockRestore();
    }
  });

  it('says when the picture itself does not load', async () => {
    mountLightbox();
    const img = await screen.findByRole('img', { name: 'prompt of 12' });
    fireEvent.error(img);
    expect(screen.getByRole('alert').textContent).toMatch(/did not load/);
  });

  it('steps with the arrow keys, Home and End, and stops at the ends of the loaded ids', async () => {
    const { spies, user } = mountLightbox();
    await screen.findByRole('img', { name: 'prompt of 12' });
    await user.keyboard('{ArrowRight}');
    expect(spies.onIndexChange).toHaveBeenLastCalledWith(2);
    expect(await screen.findByRole('img', { name: 'prompt of 13' })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Image 3 of 1,204' })).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(spies.onIndexChange).toHaveBeenLastCalledWith(0);
    await user.keyboard('{End}');
    expect(spies.onIndexChange).toHaveBeenLastCalledWith(3);
    spies.onIndexChange.mockClear();
    await user.keyboard('{ArrowRight}');
    expect(spies.onIndexChange).not.toHaveBeenCalled();
    await user.keyboard('{Home}');
    expect(spies.onIndexChange).toHaveBeenLastCalledWith(0);
    expect(screen.getByRole('button', { name: 'Previous image' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('keeps the keys it uses from the gallery behind it', async () => {
    const behind = vi.fn();
    document.addEventListener('keydown', behind);
    try {
      const { user } = mountLightbox();
      await screen.findByRole('img', { name: 'prompt of 12' });
      await user.keyboard('{ArrowRight}f');
      expect(behind).not.toHaveBeenCalled();
    } finally {
      document.removeEventListener('keydown', behind);
    }
  });

  it('zooms with + − 0, the wheel at the cursor and a double-click; shift+arrows pan', async () => {
    // happy-dom lays nothing out: the stage measures 560×432, 512×384 inside the margin, where
    // the 1024×768 image fits at 50%
    const box = { left: 0, top: 0, width: 560, height: 432 } as DOMRect;
    const measure = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(box);
    try {
      const { user } = mountLightbox();
      const img = await screen.findByRole('img', { name: 'prompt of 12' });
      const zoom = () => screen.getByRole('status', { name: 'Zoom' }).textContent;
      // the readout follows the stage's measure, a render after the picture
      await waitFor(() =>
        expect(screen.getByRole('status', { name: 'Zoom' }).title).toMatch(/50%/),
      );
      // fitted, the readout says so rather than a scale that depends on the window
      expect(zoom()).toBe('Fit');
      await user.keyboard('++');
      expect(zoom()).toBe('78%');
      await user.keyboard('-');
      expect(zoom()).toBe('63%');
      await user.keyboard('0');
      expect(zoom()).toBe('Fit');
      // happy-dom's WheelEvent has no clientX/clientY: given here, as a browser gives them
      const wheel = new WheelEvent('wheel', { deltaY: -100, bubbles: true, cancelable: true });
      Object.defineProperties(wheel, { clientX: { value: 0 }, clientY: { value: 0 } });
      fireEvent(img, wheel);
      expect(wheel.defaultPrevented).toBe(true);
      expect(zoom()).toBe('58%');
      // zoomed at the top-left corner: that corner stays put
      expect(img.style.transform).toMatch(/^translate\(0px, 0px\)/);
      await user.click(screen.getByRole('button', { name: 'Fit to window' }));
      expect(zoom()).toBe('Fit');
      await user.dblClick(img);
      expect(zoom()).toBe('100%');
      // shift and an arrow move the zoomed picture: to see more of its right, it goes left
      const x = () => Number(/translate\((-?[\d.]+)px/.exec(img.style.transform)![1]);
      const before = x();
      await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
      expect(x()).toBeCloseTo(before - 56);
      expect(screen.getByRole('dialog', { name: 'Image 2 of 1,204' })).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Fit to window' }));
      await user.click(screen.getByRole('button', { name: 'Actual size' }));
      expect(zoom()).toBe('100%');
    } finally {
      measure.mockRestore();
    }
  });

  it('closes on Escape and on the Close button', async () => {
    const { spies, user } = mountLightbox();
    await user.keyboard('{Escape}');
    expect(spies.onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(spies.onClose).toHaveBeenCalledTimes(2);
  });

  it('marks a favourite with F through the API; the event that follows shows it', async () => {
    const { fake, emit, user } = mountLightbox();
    const favourite = screen.getByRole('button', { name: 'Favourite' });
    await screen.findByRole('img', { name: 'prompt of 12' });
    expect(favourite.getAttribute('aria-pressed')).toBe('false');
    await user.keyboard('f');
    await waitFor(() =>
      expect(calls(fake, 'images.setFavorite')).toEqual([{ ids: [12], favorite: true }]),
    );
    emit([{ type: 'images.changed', payload: { ids: [12], batches: [1] } }]);
    await waitFor(() => expect(favourite.getAttribute('aria-pressed')).toBe('true'));
    await user.click(favourite);
    emit([{ type: 'images.changed', payload: { ids: [12], batches: [1] } }]);
    await waitFor(() => expect(favourite.getAttribute('aria-pressed')).toBe('false'));
  });

  it('says a refused favourite was refused, and shows none', async () => {
    const { user } = mountLightbox({
      handlers: {
        'images.setFavorite': () => {
          throw new Refusal({ code: 'internal', message: 'disk is read-only' });
        },
      },
    });
    await screen.findByRole('img', { name: 'prompt of 12' });
    await user.keyboard('F');
    const favourite = screen.getByRole('button', { name: 'Favourite' });
    await waitFor(() => expect(favourite.getAttribute('aria-pressed')).toBe('false'));
  });

  it('toggles the details with I', async () => {
    const { user } = mountLightbox();
    await screen.findByRole('img', { name: 'prompt of 12' });
    await user.keyboard('i');
    expect(screen.queryByRole('complementary', { name: 'Image details' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Details' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await user.keyboard('I');
    expect(screen.getByRole('complementary', { name: 'Image details' })).toBeTruthy();
  });

  it('asks before deleting, then deletes through the API', async () => {
    const { fake, user } = mountLightbox({
      handlers: { 'images.delete': () => ({ deleted: 1, trashed: 2, removed: 0 }) },
    });
    await screen.findByRole('img', { name: 'prompt of 12' });
    await user.keyboard('{Delete}');
    const confirm = screen.getByRole('dialog', { name: 'Delete this image?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep' }));
    expect(calls(fake, 'images.delete')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this image?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(calls(fake, 'images.delete')).toEqual([{ ids: [12] }]));
  });

  it('shows why a download failed instead of a picture, and retries it', async () => {
    const { fake, user } = mountLightbox({
      details: {
        12: {
          downloadState: 'failed',
          failureCode: 'link-expired',
          failureReason: 'The link expired (HTTP 403).',
          path: null,
        },
      },
      handlers: { 'images.retryDownloads': () => ({ queued: 1, expired: 1 }) },
    });
    const failed = await screen.findByRole('group', { name: 'Download failed' });
    expect(failed.textContent).toContain('The link expired (HTTP 403).');
    expect(screen.queryByRole('img')).toBeNull();
    await user.click(within(failed).getByRole('button', { name: 'Retry download' }));
    await waitFor(() => expect(calls(fake, 'images.retryDownloads')).toEqual([{ ids: [12] }]));
  });

  it('shows the picture once its download is written, told by the event: no polling', async () => {
    let written = false;
    const { fake, emit } = mountLightbox({
      handlers: {
        'images.get': (({ id }: { id: number }) =>
          detail({
            id,
            prompt: `prompt of ${id}`,
            downloadState: id === 12 && !written ? 'downloading' : 'done',
          })) as Handler,
      },
    });
    expect(await screen.findByText('Not downloaded yet (downloading).')).toBeTruthy();
    const asked = () => calls(fake, 'images.get').filter((c) => (c as { id: number }).id === 12);
    await new Promise((wait) => setTimeout(wait, 200));
    expect(asked()).toHaveLength(1);
    written = true;
    emit([
      {
        type: 'images.written',
        payload: {
          images: [
            { id: 12, jobId: 12, batchId: 1, relPath: 'batch/img-7.png', thumbRelPath: null },
          ],
        },
      },
    ]);
    expect(await screen.findByRole('img', { name: 'prompt of 12' })).toBeTruthy();
    expect(asked()).toHaveLength(2);
  });

  it('plays a video with controls', async () => {
    mountLightbox({ details: { 12: { kind: 'video', relPath: 'b/clip.mp4' } } });
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
    const video = document.querySelector('video')!;
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.getAttribute('src')).toBe('/image/b/clip.mp4');
  });

  it('offers the folder and the viewer on the desktop only', async () => {
    const { fake, user } = mountLightbox({ handlers: { 'images.reveal': () => ({}) } });
    await user.click(await screen.findByRole('button', { name: 'Show in folder' }));
    expect(calls(fake, 'images.reveal')).toEqual([{ id: 12 }]);
    expect(screen.getByRole('button', { name: 'Open with viewer' })).toBeTruthy();
    cleanup();
    mountLightbox({ host: 'web' });
    await screen.findByRole('button', { name: 'Copy prompt' });
    expect(screen.queryByRole('button', { name: 'Show in folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open with viewer' })).toBeNull();
  });

  it('copies the prompt and the parameters', async () => {
    // user-event puts its own clipboard in place of the browser's
    const { user } = mountLightbox({ details: { 12: { params: { quality: 'high' } } } });
    await user.click(await screen.findByRole('button', { name: 'Copy prompt' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('prompt of 12'));
    await user.click(screen.getByRole('button', { name: 'Copy parameters' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toContain('"seed"'));
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual({
      model: 'my-model',
      size: '1024x768',
      seed: 42,
      quality: 'high',
    });
  });

  it('re-runs: fills Compose with the image’s prompt and parameters and goes there', async () => {
    window.location.hash = '#/gallery';
    const { ui, spies, user } = mountLightbox();
    await waitFor(() => expect(ui.compose.getState().ready).toBe(true));
    await user.click(
      await screen.findByRole('button', { name: 'Generate again with the same seed' }),
    );
    expect(ui.compose.getState().draft).toMatchObject({
      text: 'prompt of 12',
      models: ['my-model'],
      seeds: '42',
      ns: '1',
    });
    expect(window.location.hash).toBe('#/compose');
    expect(spies.onClose).toHaveBeenCalled();
  });

  it('offers more like this: the same prompt and parameters with four new seeds', async () => {
    window.location.hash = '#/gallery';
    const { ui, user } = mountLightbox();
    await waitFor(() => expect(ui.compose.getState().ready).toBe(true));
    await user.click(await screen.findByRole('button', { name: 'More like this' }));
    const { draft } = ui.compose.getState();
    expect(draft).toMatchObject({ text: 'prompt of 12', models: ['my-model'], ns: '1' });
    const seeds = draft.seeds.split(', ').map(Number);
    expect(new Set(seeds).size).toBe(4);
    expect(seeds).not.toContain(42);
    expect(window.location.hash).toBe('#/compose');
  });

  it('asks before a re-run replaces a typed draft, and undoes it', async () => {
    const { ui, spies, user } = mountLightbox();
    await waitFor(() => expect(ui.compose.getState().ready).toBe(true));
    act(() => ui.compose.getState().edit({ text: 'my own careful prompt' }));
    await user.click(
      await screen.findByRole('button', { name: 'Generate again with the same seed' }),
    );
    const ask = await screen.findByRole('dialog', { name: 'Replace your draft in Compose?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep' }));
    expect(ui.compose.getState().draft.text).toBe('my own careful prompt');
    // the lightbox stays while asking (its dialog is the question) and after Keep
    expect(spies.onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Generate again with the same seed' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Replace your draft in Compose?' }),
      ).getByRole('button', { name: 'Replace draft' }),
    );
    expect(ui.compose.getState().draft.text).toBe('prompt of 12');
    act(() => ui.compose.getState().undo());
    expect(ui.compose.getState().draft.text).toBe('my own careful prompt');
  });
});
