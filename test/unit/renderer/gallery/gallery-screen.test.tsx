// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageSummary } from '../../../../renderer/src/data/types.ts';
import { GalleryScreen } from '../../../../renderer/src/screens/gallery/GalleryScreen.tsx';
import type { fakeApi } from '../fake-api.ts';
import { imageDetail, imageSummary, type Handler } from '../fake-api.ts';
import { mount } from '../mount.tsx';
import { giveElementsASize } from '../sized-elements.ts';

afterEach(cleanup);
giveElementsASize(1000, 700);

type Query = {
  text?: string;
  favorite?: boolean;
  downloadStates: string[];
  order: 'newest' | 'oldest';
};

const image = (id: number, prompt: string, patch: Partial<ImageSummary> = {}) =>
  imageSummary(id, { prompt, ...patch });

/** A library of images the fake service filters as the real one does (enough for the UI). */
function library(images: ImageSummary[]) {
  // read at each call: a test changes an image in `images` as the service would
  const byId = {
    get: (id: number) => images.find((each) => each.id === id),
    set: (id: number, value: ImageSummary) => {
      images[images.findIndex((each) => each.id === id)] = value;
    },
  };
  const matching = (query: Query) =>
    images
      .filter((each) => query.downloadStates.includes(each.downloadState))
      .filter((each) => query.favorite === undefined || each.favorite === query.favorite)
      .filter(
        (each) =>
          !query.text ||
          query.text
            .toLowerCase()
            .split(/\s+/)
            .every((word) => each.prompt.toLowerCase().includes(word)),
      )
      .map((each) => each.id)
      .sort((a, b) => (query.order === 'newest' ? b - a : a - b));
  const handlers: Record<string, Handler> = {
    'images.ids': (({ query }: { query: Query }) => {
      const ids = matching(query);
      return { ids, next: null, total: ids.length };
    }) as Handler,
    'images.page': (({ query, limit }: { query: Query; limit: number }) => ({
      items: matching(query)
        .slice(0, limit)
        .map((id) => byId.get(id)!),
      next: null,
    })) as Handler,
    'images.byIds': (({ ids }: { ids: number[] }) =>
      ids.flatMap((id) => byId.get(id) ?? [])) as Handler,
    'images.setFavorite': (({ ids, favorite }: { ids: number[]; favorite: boolean }) => {
      for (const id of ids) byId.set(id, { ...byId.get(id)!, favorite });
      return { changed: ids.length };
    }) as Handler,
    'images.retryDownloads': (({ ids }: { ids: number[] }) => ({
      queued: ids.length,
      expired: 0,
    })) as Handler,
    'models.catalogue': () => ({ entries: [] }),
    'images.get': (({ id }: { id: number }) => imageDetail(byId.get(id)!)) as Handler,
  };
  return handlers;
}

function mountGallery(images: ImageSummary[]) {
  const mounted = mount(<GalleryScreen />, {
    'batches.list': () => ({ items: [], next: null }),
    ...library(images),
  });
  return { ...mounted, user: userEvent.setup() };
}

const PROMPTS = ['red fox in snow', 'a cat on a sofa', 'red fox at dusk', 'lighthouse', 'owl'];
const five = () => PROMPTS.map((prompt, i) => image(i + 1, prompt));
const grid = () => screen.getByRole('grid', { name: 'Images' });
const tiles = () => within(grid()).queryAllByRole('gridcell');
const idsQueried = (fake: ReturnType<typeof fakeApi>) =>
  fake.calls.filter((c) => c.name === 'images.ids').map((c) => (c.input as { query: Query }).query);

describe('the gallery', () => {
  it('shows every image of the view newest first, with the count of matches', async () => {
    mountGallery(five());
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('5 images'));
    await waitFor(() => expect(tiles()[0]?.getAttribute('aria-label')).toBe('owl'));
    expect(tiles().map((t) => t.getAttribute('aria-label'))).toEqual([...PROMPTS].reverse());
  });

  it('shows the first page of a long list with its details: no tile asks for them again', async () => {
    const images = Array.from({ length: 30 }, (_, i) => image(i + 1, `study ${i + 1}`));
    const served = library(images);
    let firstPageSent = () => {};
    const firstPage = new Promise<void>((done) => (firstPageSent = done));
    const { fake } = mount(<GalleryScreen />, {
      'batches.list': () => ({ items: [], next: null }),
      ...served,
      // two pages of ids (a list longer than a page, as a search of 10,000 matches)
      'images.ids': ((input: { query: Query; cursor: string | null }) => {
        const { ids } = (served['images.ids'] as (i: unknown) => { ids: number[] })(input);
        if (input.cursor) return { ids: ids.slice(20), next: null, total: ids.length };
        firstPageSent();
        return { ids: ids.slice(0, 20), next: 'more', total: ids.length };
      }) as Handler,
      // the first screen's details come after the ids' first page, as from a busy host
      'images.page': (async (input: unknown) => {
        await firstPage;
        await new Promise((done) => setTimeout(done, 30));
        return (served['images.page'] as (i: unknown) => unknown)(input);
      }) as Handler,
    });
    await waitFor(() => expect(tiles()[0]?.getAttribute('aria-label')).toBe('study 30'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('30 images'));
    // its tiles were drawn once, from the details that came with the ids, in one bundle
    expect(fake.calls.filter((c) => c.name === 'images.byIds')).toEqual([]);
  });

  it('reads the library’s sizes and models once as it opens, and again when the view grows', async () => {
    const images = five();
    const { fake, emit } = mount(<GalleryScreen />, {
      'batches.list': () => ({ items: [], next: null }),
      'images.facets': () => ({ sizes: [], models: [{ value: 'flux-schnell', count: 5 }] }),
      ...library(images),
    });
    const facetsRead = () => fake.calls.filter((c) => c.name === 'images.facets').length;
    await waitFor(() => expect(tiles()).toHaveLength(5));
    // on the host's one thread, a second read as the view's total came held up the thumbnails
    expect(facetsRead()).toBe(1);
    images.push(image(6, 'a new one'));
    emit([
      {
        type: 'images.written',
        payload: {
          images: [{ id: 6, jobId: 6, batchId: 1, relPath: 'b/6.png', thumbRelPath: null }],
        },
      },
    ]);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('6 images'));
    await waitFor(() => expect(facetsRead()).toBe(2));
  });

  it('turns search and filters into the service query, and highlights what matched', async () => {
    const { fake, user } = mountGallery(five());
    await waitFor(() => expect(tiles()).toHaveLength(5));
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), 'red fox');
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 images'));
    expect(idsQueried(fake).at(-1)).toEqual({
      order: 'newest',
      downloadStates: ['done'],
      text: 'red fox',
    });
    await waitFor(() => expect(grid().querySelectorAll('mark')).toHaveLength(4));
    expect([...grid().querySelectorAll('mark')].map((m) => m.textContent)).toEqual([
      'red',
      'fox',
      'red',
      'fox',
    ]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'failed');
    await user.click(screen.getByRole('button', { name: /Favourites/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'oldest');
    await waitFor(() =>
      expect(idsQueried(fake).at(-1)).toEqual({
        order: 'oldest',
        downloadStates: ['failed'],
        text: 'red fox',
        favorite: true,
      }),
    );
    expect(await screen.findByText('No images match “red fox”.')).toBeTruthy();
  });

  it('selects by click, shift-click, mod-click and select all, and acts on the selection in order', async () => {
    const { fake, user } = mountGallery(five());
    await waitFor(() => expect(tiles()[4]?.getAttribute('aria-label')).toBe(PROMPTS[0]));
    const bar = screen.getByRole('toolbar', { name: 'Selected images' });
    await user.click(tiles()[0]!);
    await user.keyboard('{Shift>}');
    await user.click(tiles()[2]!);
    await user.keyboard('{/Shift}');
    expect(within(bar).getByText('3 selected')).toBeTruthy();
    await user.keyboard('{Control>}');
    await user.click(tiles()[1]!);
    await user.keyboard('{/Control}');
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    expect(tiles().map((t) => t.getAttribute('aria-selected'))).toEqual([
      'true',
      'false',
      'true',
      'false',
      'false',
    ]);
    await user.click(within(bar).getByRole('button', { name: '★ Favourite' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'images.setFavorite')?.input).toEqual({
        ids: [5, 3],
        favorite: true,
      }),
    );
    await user.click(within(bar).getByRole('button', { name: 'Select all 5' }));
    expect(within(bar).getByText('5 selected')).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Clear' }));
    expect(within(bar).queryByText(/selected/)).toBeNull();
  });

  it('moves through the grid with the keyboard and selects with Space', async () => {
    const { ui } = mountGallery(five());
    await waitFor(() => expect(tiles()).toHaveLength(5));
    act(() => grid().focus());
    const active = () => grid().getAttribute('aria-activedescendant');
    expect(active()).toBe('image-5');
    fireEvent.keyDown(grid(), { key: 'ArrowRight' });
    expect(active()).toBe('image-4');
    fireEvent.keyDown(grid(), { key: 'End' });
    expect(active()).toBe('image-1');
    fireEvent.keyDown(grid(), { key: ' ' });
    fireEvent.keyDown(grid(), { key: 'Home' });
    fireEvent.keyDown(grid(), { key: 'ArrowRight', shiftKey: true });
    expect([...ui.gallery.getState().selection.selected].sort()).toEqual([4, 5]);
    fireEvent.keyDown(grid(), { key: 'Escape' });
    expect(ui.gallery.getState().selection.selected.size).toBe(0);
    fireEvent.keyDown(grid(), { key: 'a', ctrlKey: true });
    await waitFor(() => expect(ui.gallery.getState().selection.selected.size).toBe(5));
    // Enter opens the focused image in the lightbox
    fireEvent.keyDown(grid(), { key: 'ArrowDown' }); // one row: nowhere to go
    expect(active()).toBe('image-4');
    fireEvent.keyDown(grid(), { key: 'Enter' });
    expect(await screen.findByRole('dialog', { name: 'Image 2 of 5' })).toBeTruthy();
  });

  it('shows a failed download as a tile with its reason, and retries only its download', async () => {
    const { fake, user } = mountGallery([
      image(1, 'fine'),
      image(2, 'lost', {
        downloadState: 'failed',
        failureCode: 'http-500',
        failureReason: 'The image store answered 500.',
      }),
    ]);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Show' }), 'failed');
    const tile = await screen.findByRole('gridcell', { name: 'lost (download failed)' });
    expect(within(tile).getByText('The image store answered 500.')).toBeTruthy();
    await user.click(within(tile).getByRole('button', { name: 'Retry download' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.name === 'images.retryDownloads')?.input).toEqual({
        ids: [2],
      }),
    );
    // never a generation: nothing is created or sent again
    expect(fake.calls.some((c) => c.name === 'batches.create' || c.name.startsWith('jobs.'))).toBe(
      false,
    );
    const bar = screen.getByRole('toolbar', { name: 'Selected images' });
    expect(within(bar).getByRole('button', { name: 'Retry 1 download' })).toBeTruthy();
  });

  it('follows a retried download that fails again: the tile leaves while it waits and comes back', async () => {
    const lost = image(2, 'lost', { downloadState: 'failed', failureReason: 'HTTP 500' });
    const images = [image(1, 'fine'), lost];
    const { emit, user } = mountGallery(images);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Show' }), 'failed');
    const tile = await screen.findByRole('gridcell', { name: 'lost (download failed)' });
    await user.click(within(tile).getByRole('button', { name: 'Retry download' }));
    // the service queued it again and says so: the failed view no longer holds it
    images[1] = { ...lost, downloadState: 'pending' };
    emit([{ type: 'images.changed', payload: { ids: [2], batches: [1] } }]);
    await waitFor(() => expect(tiles()).toHaveLength(0));
    // it failed again: it is back, with its reason
    images[1] = { ...lost, failureReason: 'HTTP 500 again' };
    emit([{ type: 'images.changed', payload: { ids: [2], batches: [1] } }]);
    const back = await screen.findByRole('gridcell', { name: 'lost (download failed)' });
    await waitFor(() => expect(within(back).queryByText('HTTP 500 again')).toBeTruthy());
  });
});
