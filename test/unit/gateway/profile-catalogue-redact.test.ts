import { describe, expect, it } from 'vitest';
import {
  builtInModels,
  completeEntry,
  createCatalogue,
  ModelEntrySchema,
  type ModelEntryInput,
} from '../../../shared/gateway/catalogue.ts';
import { apiRoot, GatewayProfileSchema, parseProfile } from '../../../shared/gateway/profile.ts';
import { redact } from '../../../shared/gateway/redact.ts';

describe('gateway profile', () => {
  it("defaults to the interface's own names", () => {
    const profile = parseProfile({ baseUrl: 'http://127.0.0.1:8700' });
    expect(profile).toMatchObject({
      requestIdHeader: 'X-Svc-Request-Id',
      advancedSegment: 'svc',
      partialKey: 'svc_partial',
      extraHeaders: {},
      timeouts: { connectMs: 10_000, responseMs: 300_000, totalMs: 600_000 },
    });
    expect(profile).not.toHaveProperty('apiKey');
  });

  it.each([
    ['http://h:1', 'http://h:1/v1'],
    ['http://h:1/', 'http://h:1/v1'],
    ['http://h:1/v1', 'http://h:1/v1'],
    ['https://h/proxy/v1/', 'https://h/proxy/v1'],
  ])('API root of %s is %s', (baseUrl, root) => {
    expect(apiRoot({ baseUrl })).toBe(root);
  });

  it.each([
    [{ baseUrl: 'ftp://h' }, /http/],
    [{ baseUrl: 'http://h', advancedSegment: 'a/b' }, /single path word/],
    [
      { baseUrl: 'http://h', extraHeaders: { Authorization: 'x' } },
      /remove the Authorization header/,
    ],
  ])('refuses %j', (input, message) => {
    const result = GatewayProfileSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join(' ')).toMatch(message);
  });
});

describe('model catalogue', () => {
  it('ships the well-known models', () => {
    expect(builtInModels().map((m) => m.id)).toEqual(
      expect.arrayContaining([
        'gpt-image-1',
        'dall-e-3',
        'dall-e-2',
        'qwen-image',
        'qwen-image-edit',
        'flux-pro',
        'flux-schnell',
        'sora-2',
        'gpt-4o-mini',
      ]),
    );
  });

  it('ships built-in entries valid and completed as the entry schema would, unparsed', () => {
    // each one as the schema makes it: valid, every field there, nothing it would strip
    for (const entry of builtInModels()) expect(ModelEntrySchema.parse(entry)).toEqual(entry);
    // and what is filled in for a field left out is the schema's own default
    const leanest: ModelEntryInput[] = [
      { kind: 'image', id: 'i', protocol: 'openai', sizes: 'any' },
      { kind: 'video', id: 'v' },
      { kind: 'text', id: 't' },
    ];
    for (const entry of leanest) {
      expect(completeEntry(entry)).toStrictEqual(ModelEntrySchema.parse(entry));
    }
  });

  it('gives unknown models permissive OpenAI rules', () => {
    const entry = createCatalogue().lookup('vendor/unknown');
    expect(entry).toMatchObject({ kind: 'image', protocol: 'openai', sizes: 'any', nMax: 10 });
    expect(createCatalogue().knows('vendor/unknown')).toBe(false);
  });

  it('merges user entries over built-ins and validates them', () => {
    const catalogue = createCatalogue([
      { kind: 'image', id: 'flux-pro', protocol: 'advanced', sizes: ['512x512'] },
      { kind: 'text', id: 'my-llm' },
    ]);
    expect(catalogue.lookup('flux-pro')).toMatchObject({ sizes: ['512x512'] });
    expect(catalogue.lookup('my-llm').kind).toBe('text');
    expect(() =>
      createCatalogue([{ kind: 'image', id: 'bad', protocol: 'openai', sizes: ['1024×1024'] }]),
    ).toThrow();
  });
});

describe('redact', () => {
  it.each([
    ['Bearer sk-abc123def456', 'Bearer sk-…(redacted)'],
    ['key=sk-proj_ABC-def.ghi end', 'key=sk-…(redacted) end'],
    ['{"auth":"Bearer xyz-secret-token"}', '{"auth":"Bearer sk-…(redacted)"}'],
    ['(key Bearer abc-secret) end', '(key Bearer sk-…(redacted)) end'],
    ['nothing secret', 'nothing secret'],
    ['the key sk-abc123 leaked', 'the key sk-…(redacted) leaked'],
    ['task-failed on a disk-full, risk-free', 'task-failed on a disk-full, risk-free'],
  ])('%s', (input, output) => {
    expect(redact(input)).toBe(output);
  });

  it('removes a key of any shape when it is named', () => {
    expect(redact('got AbCdEf123456 back', 'AbCdEf123456')).toBe('got sk-…(redacted) back');
  });
});
