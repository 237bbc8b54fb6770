// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageSummary } from '../../../../renderer/src/data/types.ts';
import { GalleryScreen } from '../../../../renderer/src/screens/gallery/GalleryScreen.tsx';
import { imageDetail, imageSummary, type Handler } from '../fake-api.ts';
import { mount } from '../mount.tsx';
import { giveElementsASize } from '../sized-elements.ts';

afterEach(cleanup);
giveElementsASize(1000, 700);

interface Query {
  text?: string;
}

/**
 * A library newest first, searched by words; `hold` keeps a search's answer back until it is
 * let go, as a busy host does (the list the lightbox was opened on is then being replaced).
 */
const written = (ids: number[]) => ({
  type: 'images.written' as const,
  payload: {
    images: ids.map((id) => ({
      id,
      jobId: id,
      batchId: 1,
      relPath: `batch/${id}.png`,
      thumbRelPath: null,
    })),
  },
});

function library(images: ImageSummary[]) {
  const held: Array<() => void> = [];
  let hold = false;
  const matching = (query: Query) =>
    images
      .filter((each) => !query.text || each.prompt.includes(query.text))
      .map((each) => each.id)
      .sort((a, b) => b - a);
  const byId = (id: number) => images.find((each) => each.id === id)!;
  const handlers: Record<string, Handler> = {
    'batches.list': () => ({ items: [], next: null }),
    'models.catalogue': () => ({ entries: [] }),
    'images.ids': (async ({ query }: { query: Query }) => {
      if (hold && query.text) await new Promise<void>((go) => held.push(go));
      const ids = matching(query);
      return { ids, next: null, total: ids.length };
    }) as Handler,
    'images.page': (({ query, limit }: { query: Query; limit: number }) => ({
      items: matching(query).slice(0, limit).map(byId),
      next: null,
    })) as Handler,
    'images.byIds': (({ ids }: { ids: number[] }) => ids.map(byId)) as Handler,
    'images.get': (({ id }: { id: number }) => imageDetail(byId(id))) as Handler,
  };
  return {
    handlers,
    holdSearches: () => void (hold = true),
    release: () => held.splice(0).forEach((go) => go()),
    waiting: () => held.length,
  };
}

// behind an open lightbox the grid is hidden from assistive technology, not gone
const grid = () => screen.getByRole('grid', { name: 'Images', hidden: true });
const tile = (name: string) => within(grid()).getByRole('gridcell', { name, hidden: true });
const dialog = () => screen.queryByRole('dialog', { name: /^Image \d+ of/ });
const shown = () => within(dialog()!).getByRole('img').getAttribute('alt');

describe('the lightbox over a list that changes', () => {
  it('keeps showing its image as new images join the top of the view', async () => {
    const images = [1, 2, 3].map((id) => imageSummary(id, { prompt: `picture ${id}` }));
    const { emit } = mount(<GalleryScreen />, library(images).handlers);
    await waitFor(() => expect(tile('picture 3')).toBeTruthy());
    fireEvent.doubleClick(tile('picture 3'));
    await waitFor(() => expect(shown()).toBe('picture 3'));
    expect(screen.getByRole('dialog', { name: 'Image 1 of 3' })).toBeTruthy();

    // a running batch writes two more: the view takes them in at its top
    images.push(imageSummary(4, { prompt: 'picture 4' }), imageSummary(5, { prompt: 'picture 5' }));
    emit([written([4, 5])]);
    await waitFor(() =>
      expect(within(grid()).getAllByRole('gridcell', { hidden: true })).toHaveLength(5),
    );
    // the same picture, now third of five: not the one that took its old place
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Image 3 of 5' })).toBeTruthy());
    expect(shown()).toBe('picture 3');
  });

  it('stays open on its image while a search typed just before is read', async () => {
    const images = [1, 2, 3].map((id) =>
      imageSummary(id, { prompt: id === 2 ? 'a red fox' : `picture ${id}` }),
    );
    const lib = library(images);
    mount(<GalleryScreen />, lib.handlers);
    const user = userEvent.setup();
    await waitFor(() => expect(tile('a red fox')).toBeTruthy());
    lib.holdSearches();
    // typed, and the fox opened before the search runs (it shows in the list still on screen)
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), 'fox');
    fireEvent.doubleClick(tile('a red fox'));
    await waitFor(() => expect(shown()).toBe('a red fox'));
    await waitFor(() => expect(lib.waiting()).toBe(1));
    // the view's list is being replaced: the lightbox does not take that for an empty view
    expect(dialog()).not.toBeNull();
    expect(shown()).toBe('a red fox');
    await act(async () => lib.release());
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Image 1 of 1' })).toBeTruthy());
    expect(shown()).toBe('a red fox');
  });

  it('shows the next image when its own is deleted, and follows that one from then on', async () => {
    const images = [1, 2, 3].map((id) => imageSummary(id, { prompt: `picture ${id}` }));
    const { emit } = mount(<GalleryScreen />, library(images).handlers);
    await waitFor(() => expect(tile('picture 2')).toBeTruthy());
    fireEvent.doubleClick(tile('picture 2'));
    await waitFor(() => expect(shown()).toBe('picture 2'));
    images.splice(1, 1);
    emit([{ type: 'images.deleted', payload: { ids: [2] } }]);
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Image 2 of 2' })).toBeTruthy());
    expect(shown()).toBe('picture 1');
    images.push(imageSummary(4, { prompt: 'picture 4' }));
    emit([written([4])]);
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Image 3 of 3' })).toBeTruthy());
    expect(shown()).toBe('picture 1');
  });
});
