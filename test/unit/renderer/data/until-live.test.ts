import { describe, expect, it } from 'vitest';
import { createData } from '../../../../renderer/src/data/data.ts';
import { startEventPump } from '../../../../renderer/src/data/event-pump.ts';
import { untilLive } from '../../../../renderer/src/data/until-live.ts';
import { fakeApi } from '../fake-api.ts';

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('untilLive', () => {
  it('holds every call until the stream is live, then sends it with its input and answer', async () => {
    const fake = fakeApi({ 'settings.get': () => ({ theme: 'dark' }) });
    const live = Promise.withResolvers<void>();
    const api = untilLive(fake.api, live.promise);
    const answer = api.settings.get({});
    await turns();
    expect(fake.calls).toEqual([]);
    live.resolve();
    expect(await answer).toEqual({ theme: 'dark' });
    expect(fake.calls).toEqual([{ name: 'settings.get', input: {} }]);
  });

  it('passes a refusal through as the API does, and leaves the event stream unheld', async () => {
    const fake = fakeApi();
    const api = untilLive(fake.api, Promise.resolve());
    await expect(api.settings.get({})).rejects.toThrow('settings.get not faked');
    expect(api.events).toBe(fake.api.events);
  });

  it("opens with the pump's first delivery, or when its stream is lost", async () => {
    for (const how of ['delivery', 'lost'] as const) {
      const fake = fakeApi({ 'settings.get': () => ({}) });
      const live = Promise.withResolvers<void>();
      const data = createData(untilLive(fake.api, live.promise));
      const pump = startEventPump(data, Date.now, live.resolve);
      void data.api.settings.get({});
      await turns();
      expect(fake.calls).toEqual([]);
      if (how === 'delivery') fake.emit({ cursor: 'c1', events: [] });
      else fake.lose({ reason: 'gone', retryInMs: 1000 });
      await turns();
      expect(fake.calls.map((c) => c.name)).toEqual(['settings.get']);
      pump.stop();
    }
  });
});
