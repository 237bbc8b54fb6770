import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { channelOf, contractMethods, findMethod } from '../../../shared/api/channels.ts';
import { contract } from '../../../shared/api/contract.ts';
import { lazy, PARSE_ONCE } from '../../../shared/api/define.ts';
import type { Result } from '../../../shared/api/errors.ts';
import { EventBatchSchema } from '../../../shared/api/events.ts';
import { buildRawApi } from '../../../shared/api/raw-client.ts';
import type { Api, Handlers, RawApi } from '../../../shared/api/types.ts';
import { ApiRequestError, unwrap } from '../../../shared/api/unwrap.ts';
import { Settings, SettingsPatch } from '../../../shared/api/schemas/settings.ts';
import * as apiErrors from '../../../shared/api/errors.ts';
import * as paging from '../../../shared/api/paging.ts';
import * as catalogue from '../../../shared/gateway/catalogue.ts';
import * as wireErrors from '../../../shared/gateway/wire/errors.ts';
import * as wireImages from '../../../shared/gateway/wire/images.ts';
import * as wireText from '../../../shared/gateway/wire/text.ts';
import * as wireVideo from '../../../shared/gateway/wire/video.ts';
import { dispatch } from '../../../main/core/app/dispatch.ts';

const noEvents = { subscribe: () => () => {} };

describe('the contract', () => {
  it('gives every method a zod schema for its input and its output', () => {
    const methods = contractMethods();
    expect(methods.length).toBeGreaterThan(40);
    for (const { area, method } of methods) {
      const spec = findMethod(area, method)!;
      expect(spec.input, `${area}.${method}`).toBeInstanceOf(z.ZodType);
      expect(spec.output, `${area}.${method}`).toBeInstanceOf(z.ZodType);
    }
  });

  it('builds every schema of the contract and its events when first used', () => {
    // built lazily, a schema that cannot be built would only fail at its first call
    for (const { area, method } of contractMethods()) {
      const spec = findMethod(area, method)!;
      expect(() => spec.input.safeParse(undefined), `${area}.${method}`).not.toThrow();
      expect(() => spec.output.safeParse(undefined), `${area}.${method}`).not.toThrow();
    }
    expect(EventBatchSchema.safeParse({ cursor: 'c1', events: [] }).success).toBe(true);
  });

  it('builds every lazily built schema outside the contract when first used', () => {
    const modules = { apiErrors, paging, catalogue, wireErrors, wireImages, wireText, wireVideo };
    const built: string[] = [];
    for (const [name, exports] of Object.entries(modules)) {
      for (const [key, value] of Object.entries(exports)) {
        if (!(value instanceof z.ZodLazy)) continue;
        expect(() => value.safeParse(undefined), `${name}.${key}`).not.toThrow();
        built.push(key);
      }
    }
    expect(built).toEqual(expect.arrayContaining(['ImageResponseSchema', 'ModelEntrySchema']));
    // those made of other lazy schemas (unwrapped) parse as they did when built as modules load
    expect(
      wireImages.ImageResponseSchema.parse({ created: 1, data: [{ url: 'u', seed: 7 }], x: 1 }),
    ).toEqual({ created: 1, data: [{ url: 'u', seed: 7 }], x: 1 });
    expect(wireImages.ImageResponseSchema.safeParse({ data: [{ url: 5 }] }).success).toBe(false);
    expect(catalogue.ModelEntrySchema.parse({ kind: 'text', id: 'chat' })).toEqual({
      kind: 'text',
      id: 'chat',
    });
    expect(catalogue.ModelEntrySchema.parse({ kind: 'video', id: 'v' })).toMatchObject({
      submitPath: 'videos',
    });
    expect(catalogue.ModelEntrySchema.safeParse({ kind: 'audio', id: 'a' }).success).toBe(false);
    expect(wireErrors.ApiErrorBodySchema.parse({ error: { code: 429 } }).error.code).toBe(429);
    expect(wireErrors.TaskErrorBodySchema.parse({ code: 'quota' }).code).toBe('quota');
    expect(wireErrors.TaskErrorBodySchema.safeParse({ code: true }).success).toBe(false);
  });

  it('builds a lazy schema once, on its first use, and extends that one', () => {
    let builds = 0;
    const Row = lazy(() => {
      builds++;
      return z.object({ n: z.number().default(1) });
    });
    const Detail = lazy(() => Row.unwrap().extend({ name: z.string() }));
    expect(builds).toBe(0);
    expect(Detail.parse({ name: 'a' })).toEqual({ n: 1, name: 'a' });
    expect(Row.parse({})).toEqual({ n: 1 });
    expect(Row.safeParse({ n: 'x' }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('parses once (PARSE_ONCE, no compiled parser) exactly as zod compiled parsers do', () => {
    const cases: Array<[z.ZodType, unknown]> = [
      [Settings, {}],
      [Settings, { concurrency: 8, profiles: [{ name: 'home', baseUrl: 'http://127.0.0.1:1' }] }],
      [Settings, { concurrency: 0, profiles: [{ name: '' }], extra: true }],
      [contract.batches.create.input, { source: { kind: 'path', path: 'p.txt' }, defaults: {} }],
      [contract.batches.create.input, { source: { kind: 'rows', rows: [{ prompt: '' }] } }],
      [contract.settings.update.input, { theme: 'dark', budget: { perDay: 5 } }],
    ];
    for (const [schema, input] of cases) {
      // (without PARSE_ONCE, zod compiles the object's parser on this first parse and uses it)
      const slow = schema.safeParse(input, PARSE_ONCE);
      const compiled = schema.safeParse(input);
      expect(slow.success).toBe(compiled.success);
      expect(slow.data).toEqual(compiled.data);
      expect(slow.error?.issues).toEqual(compiled.error?.issues);
    }
  });

  it('does not treat inherited property names as methods', () => {
    expect(findMethod('batches', 'constructor')).toBeNull();
    expect(findMethod('__proto__', 'list')).toBeNull();
    expect(findMethod('toString', 'call')).toBeNull();
  });

  it('names one IPC channel per method', () => {
    const channels = contractMethods().map(({ area, method }) => channelOf(area, method));
    expect(new Set(channels).size).toBe(channels.length);
    expect(channelOf('jobs', 'ids')).toBe('atelier:jobs.ids');
  });

  it('lets methods that take nothing be called without an argument', () => {
    expect(contract.queue.state.input.parse(undefined)).toEqual({});
    expect(() => contract.queue.state.input.parse({ extra: 1 })).toThrow();
    expectTypeOf<Api['queue']['state']>().toBeCallableWith();
    expectTypeOf<Api['jobs']['cancel']>().toBeCallableWith({ ids: [1] });
  });

  it('applies defaults and refuses what a UI must not send', () => {
    expect(contract.images.page.input.parse({})).toMatchObject({
      query: { downloadStates: ['done'], order: 'newest' },
      limit: 100,
    });
    expect(
      contract.jobs.byIds.input.safeParse({ ids: Array.from({ length: 501 }, (_, i) => i + 1) })
        .success,
    ).toBe(false);
    expect(contract.queue.setLimits.input.safeParse({}).success).toBe(false);
    expect(
      contract.batches.create.input.safeParse({ source: { kind: 'rows', rows: [] } }).success,
    ).toBe(false);
    expect(contract.settings.update.input.safeParse({ concurrency: 0 }).success).toBe(false);
    expect(contract.settings.update.input.safeParse({ apiKey: 'sk-x' }).success).toBe(false);
  });

  it('parses an event delivery', () => {
    const batch = EventBatchSchema.parse({
      cursor: 'abc',
      events: [
        { type: 'jobs.changed', payload: { changes: [[1, 'running']], batches: [1] } },
        {
          type: 'queue.paused',
          payload: { reason: 'key refused', code: 'invalid_api_key', kind: 'auth' },
        },
      ],
    });
    expect(batch.events).toHaveLength(2);
    expect(() =>
      EventBatchSchema.parse({ cursor: 'c', events: [{ type: 'nope', payload: {} }] }),
    ).toThrow();
  });
});

describe('clients built from the contract', () => {
  it('have exactly the contract’s methods, each sending its own area and name', async () => {
    const sent: Array<[string, string, unknown]> = [];
    const raw = buildRawApi(async (area, method, input) => {
      sent.push([area, method, input]);
      return { ok: true, value: null };
    }, noEvents) satisfies RawApi;
    const areas = Object.keys(raw)
      .filter((k) => k !== 'events')
      .sort();
    expect(areas).toEqual(Object.keys(contract).sort());
    for (const area of areas) {
      expect(Object.keys((raw as never)[area]).sort()).toEqual(
        Object.keys(contract[area as keyof typeof contract]).sort(),
      );
    }
    await raw.jobs.cancel({ ids: [3] });
    await raw.queue.state();
    expect(sent).toEqual([
      ['jobs', 'cancel', { ids: [3] }],
      ['queue', 'state', {}],
    ]);
  });

  it('throw the service’s error, code and details kept, once unwrapped', async () => {
    const raw = buildRawApi(
      async () =>
        ({
          ok: false,
          error: { code: 'not-found', message: 'No batch 9.', details: { id: 9 } },
        }) as Result<unknown>,
      noEvents,
    );
    const api = unwrap(raw);
    const error = await api.batches.get({ id: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'not-found', message: 'No batch 9.', details: { id: 9 } });
  });
});

describe('dispatch', () => {
  const handlers = {
    batches: {
      get: async ({ id }: { id: number }) => {
        if (id === 404) throw new Error('secret sk-abcdefghijklmnop');
        return { id } as never;
      },
    },
    queue: { setLimits: async (input: unknown) => input },
  } as unknown as Handlers;
  const options = { toApiError: () => ({ code: 'internal' as const, message: 'mapped' }) };

  it('refuses a method the contract lacks, without touching the handlers', async () => {
    expect(await dispatch(handlers, 'batches', 'drop', {}, options)).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await dispatch(handlers, 'batches', 'hasOwnProperty', {}, options)).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('refuses an input that fails the schema, naming the field', async () => {
    const result = await dispatch(handlers, 'batches', 'get', { id: -1 }, options);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(!result.ok && result.error.message).toMatch(/^batches\.get: id: /);
  });

  it('hands the handler the parsed input and returns its value', async () => {
    expect(await dispatch(handlers, 'queue', 'setLimits', { concurrency: 4 }, options)).toEqual({
      ok: true,
      value: { concurrency: 4 },
    });
  });

  it('maps what a handler throws through the host’s mapper', async () => {
    expect(await dispatch(handlers, 'batches', 'get', { id: 404 }, options)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'mapped' },
    });
  });

  it('checks outputs when asked to', async () => {
    const result = await dispatch(
      handlers,
      'batches',
      'get',
      { id: 5 },
      {
        toApiError: (e) => ({ code: 'internal', message: String(e).slice(0, 40) }),
        checkOutput: true,
      },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('SettingsPatch', () => {
  it('leaves out what is not given: a change of one setting resets none of the others', () => {
    expect(SettingsPatch.parse({ theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(SettingsPatch.parse({})).toEqual({});
    expect(() => SettingsPatch.parse({ nope: 1 })).toThrow();
    expect(() => SettingsPatch.parse({ concurrency: 0 })).toThrow();
  });
});
