import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import {
  download,
  errorJson,
  okJson,
  onlyEntry,
  pictureDistance,
  pictureOf,
  postJson,
  solidPng,
} from './image-helpers.ts';
import { noise, rectMask } from '../../support/edit-pictures.ts';

let gateway: RunningGateway;
afterEach(() => gateway?.close());

const EDITS = '/v1/images/edits';

function postForm(fields: Record<string, string | Blob>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return fetch(`${gateway.url}${EDITS}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.key}`, ...headers },
    body: form,
  });
}
const pngBlob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

const qwenEdit = (image: string, text = 'make the sky stormy', parameters?: object) => ({
  model: 'qwen-image-edit',
  input: { messages: [{ role: 'user', content: [{ image }, { text }] }] },
  ...(parameters ? { parameters } : {}),
});

describe('POST /v1/images/edits, multipart', () => {
  it('edits the uploaded picture: same size by default, close to the input, charged per image', async () => {
    gateway = await startGateway();
    const input = await solidPng(512, 512, [20, 160, 40]);
    const response = await postForm({
      model: 'dall-e-2',
      prompt: 'add a red balloon',
      image: pngBlob(input),
      n: '2',
      response_format: 'b64_json',
    });
    const body = await okJson(response);
    expect(body.data).toHaveLength(2);
    const [first, second] = body.data.map((item) => Buffer.from(item.b64_json!, 'base64'));
    expect(await pictureOf(first!)).toEqual({ width: 512, height: 512, format: 'png' });
    expect(first!.equals(second!)).toBe(false);

    // Derived from the input, and visibly edited (no mask: all of it): near its negative.
    const negative = await sharp(input).negate().png().toBuffer();
    expect(await pictureDistance(first!, negative)).toBeLessThan(
      (await pictureDistance(first!, input)) / 2,
    );

    await gateway.idle();
    const entry = gateway.ledger.find(response.headers.get('x-svc-request-id')!);
    expect(entry).toMatchObject({ endpoint: EDITS, charged: 4000, units: 2, state: 'settled' });
  });

  it('resizes to the asked size, keeps the opaque part of the mask, and serves it as a URL', async () => {
    gateway = await startGateway();
    const input = await solidPng(300, 300, [200, 30, 30]);
    const maskRaw = Buffer.alloc(300 * 300 * 4);
    for (let i = 0; i < 300 * 300; i++) maskRaw[i * 4 + 3] = i % 300 < 150 ? 255 : 0;
    const mask = await sharp(maskRaw, { raw: { width: 300, height: 300, channels: 4 } })
      .png()
      .toBuffer();
    const body = await okJson(
      await postForm({
        model: 'flux-schnell',
        prompt: 'paint the right half',
        image: pngBlob(input),
        mask: pngBlob(mask),
        size: '200x100',
        output_format: 'jpeg',
      }),
    );
    const bytes = await download(body.data[0]!.url!);
    expect(await pictureOf(bytes)).toEqual({ width: 200, height: 100, format: 'jpeg' });
    const raw = await sharp(bytes).raw().toBuffer();
    const pixel = (x: number, y: number) => [
      ...raw.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3),
    ];
    const [r, g] = pixel(20, 50);
    expect(Math.abs(r! - 200)).toBeLessThan(12); // kept (JPEG tolerance)
    expect(Math.abs(g! - 30)).toBeLessThan(12);
    expect(await pictureDistance(bytes, input)).toBeGreaterThan(2);
  });

  it('is deterministic for the same input and prompt', async () => {
    gateway = await startGateway();
    const input = await solidPng(64, 64, [10, 10, 200]);
    const ask = () =>
      postForm({
        model: 'flux-schnell',
        prompt: 'same',
        image: pngBlob(input),
        response_format: 'b64_json',
      }).then(okJson);
    // No seed on the multipart form: the gateway draws one, so two calls differ…
    const [a, b] = [await ask(), await ask()];
    expect(a.data[0]!.b64_json).not.toBe(b.data[0]!.b64_json);
    // …and a repeat download of one link gives the very same bytes.
    const linked = await okJson(
      await postForm({ model: 'flux-schnell', prompt: 'same', image: pngBlob(input) }),
    );
    const url = linked.data[0]!.url!;
    expect((await download(url)).equals(await download(url))).toBe(true);
  });

  it.each([
    ['a model that cannot edit', { model: 'dall-e-3' }, 400, 'does not support image editing'],
    ['a JSON-edit model', { model: 'qwen-image-edit' }, 400, 'JSON body'],
    ['a missing image', { image: '' }, 400, '"image" is required'],
    ['a file that is not a picture', { image: new Blob(['hello']) }, 400, 'not a readable picture'],
    ['an unknown field', { style: 'vivid' }, 400, 'not a field'],
    ['a wrong n', { n: 'two' }, 422, 'integer'],
  ])('refuses %s before billing', async (_, change, status, message) => {
    gateway = await startGateway();
    const fields: Record<string, string | Blob> = {
      model: 'dall-e-2',
      prompt: 'x',
      image: pngBlob(await solidPng(16, 16, [0, 0, 0])),
      ...change,
    };
    if (fields.image === '') delete fields.image;
    const error = await errorJson(await postForm(fields), status);
    expect(error.message).toContain(message);
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(0);
  });

  it('refuses a body that is neither multipart nor JSON', async () => {
    gateway = await startGateway();
    const response = await fetch(`${gateway.url}${EDITS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'text/plain' },
      body: 'edit please',
    });
    expect((await errorJson(response, 400)).message).toContain('multipart/form-data');
  });
});

describe('POST /v1/images/edits, Qwen-style JSON', () => {
  it("edits a picture given by this gateway's own link, keeping its size", async () => {
    gateway = await startGateway();
    const generated = await okJson(
      await postJson(gateway, '/v1/images/generations', {
        model: 'flux-schnell',
        prompt: 'a meadow',
        size: '320x240',
      }),
    );
    const source = await download(generated.data[0]!.url!);
    const response = await postJson(
      gateway,
      EDITS,
      qwenEdit(generated.data[0]!.url!, 'add a stormy sky', {
        n: 2,
        watermark: true,
        prompt_extend: true,
      }),
    );
    const body = await okJson(response);
    expect(body.data).toHaveLength(2);
    expect(body.data[0]!.revised_prompt).toMatch(/^add a stormy sky, /);
    const edited = await download(body.data[0]!.url!);
    expect(await pictureOf(edited)).toEqual({ width: 320, height: 240, format: 'png' });
    expect(await pictureDistance(edited, source)).toBeGreaterThan(2);
    expect(await pictureDistance(edited, source)).toBeLessThan(60);
    await gateway.idle();
    expect(gateway.ledger.find(response.headers.get('x-svc-request-id')!)?.charged).toBe(5000);
  });

  it('decodes a data: URL, and derives a stand-in picture from an outside URL deterministically', async () => {
    gateway = await startGateway();
    const input = await solidPng(100, 80, [250, 250, 0]);
    const fromData = await okJson(
      await postJson(
        gateway,
        EDITS,
        qwenEdit(`data:image/png;base64,${input.toString('base64')}`, 'x', { seed: 1 }),
      ),
    );
    const edited = await download(fromData.data[0]!.url!);
    expect(await pictureOf(edited)).toEqual({ width: 100, height: 80, format: 'png' });
    const negative = await sharp(input).negate().png().toBuffer();
    expect(await pictureDistance(edited, negative)).toBeLessThan(90);

    const outside = () =>
      postJson(gateway, EDITS, qwenEdit('https://example.com/cat.png', 'x', { seed: 1 })).then(
        okJson,
      );
    const [a, b] = [await outside(), await outside()];
    const [bytesA, bytesB] = [await download(a.data[0]!.url!), await download(b.data[0]!.url!)];
    expect(bytesA.equals(bytesB)).toBe(true);
    expect(await pictureOf(bytesA)).toEqual({ width: 512, height: 512, format: 'png' });
  });

  it('refuses an expired own link and a non-http URL, charging nothing', async () => {
    let now = Date.now();
    gateway = await startGateway({ urlTtlMs: 30, now: () => now });
    const generated = await okJson(
      await postJson(gateway, '/v1/images/generations', {
        model: 'flux-schnell',
        prompt: 'x',
        size: '16x16',
      }),
    );
    now += 60; // past the link's lifetime
    const expired = await errorJson(
      await postJson(gateway, EDITS, qwenEdit(generated.data[0]!.url!)),
      400,
    );
    expect(expired).toMatchObject({ code: 'invalid_image_url' });
    expect(expired.message).toContain('expired');
    const ftp = await errorJson(await postJson(gateway, EDITS, qwenEdit('ftp://host/a.png')), 400);
    expect(ftp.message).toContain('http(s)');
    await gateway.idle();
    expect(gateway.ledger.entries()).toHaveLength(1);
  });

  it('refuses JSON for a multipart-edit model and a generation-only model', async () => {
    gateway = await startGateway();
    const wrong = await errorJson(
      await postJson(gateway, EDITS, { ...qwenEdit('https://e.com/a.png'), model: 'gpt-image-1' }),
      400,
    );
    expect(wrong.message).toContain('multipart/form-data');
    const none = await errorJson(
      await postJson(gateway, EDITS, { ...qwenEdit('https://e.com/a.png'), model: 'qwen-image' }),
      400,
    );
    expect(none.message).toContain('does not support image editing');
    expect(none.message).toContain('qwen-image-edit');
  });

  it("serves an edit's link until it expires", async () => {
    let now = Date.now();
    gateway = await startGateway({ urlTtlMs: 40, now: () => now });
    const input = await solidPng(32, 32, [1, 2, 3]);
    const body = await okJson(
      await postForm({ model: 'flux-schnell', prompt: 'x', image: pngBlob(input) }),
    );
    expect((await onlyEntry(gateway)).state).toBe('settled');
    expect(await pictureOf(await download(body.data[0]!.url!))).toMatchObject({ width: 32 });
    now += 80; // past the link's lifetime
    expect((await fetch(body.data[0]!.url!)).status).toBe(404);
  });
});

describe('POST /v1/images/edits, checked as a strict gateway does', () => {
  const form = (parts: Array<[string, string | Blob]>) => {
    const body = new FormData();
    for (const [name, value] of parts) body.append(name, value);
    return fetch(`${gateway.url}${EDITS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}` },
      body,
    });
  };
  const base = async (): Promise<Array<[string, string | Blob]>> => [
    ['model', 'flux-schnell'],
    ['prompt', 'x'],
  ];

  it.each([
    ['any', 'image', 200],
    ['any', 'image[]', 200],
    ['image', 'image', 200],
    ['image', 'image[]', 400],
    ['image[]', 'image[]', 200],
    ['image[]', 'image', 400],
  ] as const)(
    'with --edit-image-field %s, a picture sent as "%s" is answered %i',
    async (accepted, sent, status) => {
      gateway = await startGateway({ editImageField: accepted });
      const response = await form([
        ...(await base()),
        [sent, pngBlob(await solidPng(16, 16, [1, 2, 3]))],
      ]);
      if (status === 200) {
        await okJson(response);
        expect(gateway.receivedEdits()).toMatchObject([{ imageField: sent, body: 'multipart' }]);
      } else {
        const error = await errorJson(response, status);
        expect(error.message).toBe(
          `"${sent}" is not read by this gateway: send the picture as "${accepted}".`,
        );
        expect(gateway.receivedEdits()).toEqual([]);
      }
    },
  );

  it('refuses "image" and "image[]" in one request, whatever it accepts', async () => {
    gateway = await startGateway();
    const picture = pngBlob(await solidPng(16, 16, [1, 2, 3]));
    const error = await errorJson(
      await form([...(await base()), ['image', picture], ['image[]', picture]]),
      400,
    );
    expect(error.message).toContain('not both in one request');
  });

  it.each([
    [
      'a mask that is no PNG',
      async () =>
        sharp(await rectMask(16, 16, { left: 0, top: 0, width: 8, height: 8 }))
          .webp()
          .toBuffer(),
      'must be a PNG file',
    ],
    ['a mask without alpha', () => solidPng(16, 16, [0, 0, 0]), 'has no alpha channel'],
    [
      'a mask of another size',
      () => rectMask(32, 32, { left: 0, top: 0, width: 8, height: 8 }),
      '"mask" is 32x32 but "image" is 16x16',
    ],
  ])('refuses %s before billing', async (_, makeMask, message) => {
    gateway = await startGateway();
    const error = await errorJson(
      await form([
        ...(await base()),
        ['image', pngBlob(await solidPng(16, 16, [1, 2, 3]))],
        ['mask', pngBlob(await makeMask())],
      ]),
      400,
    );
    expect(error).toMatchObject({ code: 'invalid_mask', param: 'mask' });
    expect(error.message).toContain(message);
    await gateway.idle();
    expect(gateway.ledger.entries()).toEqual([]);
  });

  it("refuses files over the model's limit and, for dall-e-2, pictures that are not square", async () => {
    gateway = await startGateway();
    const big = await errorJson(
      await form([
        ['model', 'dall-e-2'],
        ['prompt', 'x'],
        ['image', pngBlob(await noise(1200, 1200))],
      ]),
      400,
    );
    expect(big).toMatchObject({ code: 'image_too_large', param: 'image' });
    expect(big.message).toMatch(
      /^"image" is 4\.\d MB; model "dall-e-2" takes files up to 4\.0 MB\.$/,
    );
    const wide = await errorJson(
      await form([
        ['model', 'dall-e-2'],
        ['prompt', 'x'],
        ['image', pngBlob(await solidPng(64, 32, [0, 0, 0]))],
      ]),
      400,
    );
    expect(wide.message).toBe('Model "dall-e-2" edits square images only; "image" is 64x32.');
  });

  it('keeps what it received: the text fields, the picture and the mask with its transparent pixels', async () => {
    gateway = await startGateway();
    const picture = await solidPng(20, 10, [9, 9, 9]);
    const mask = await rectMask(20, 10, { left: 0, top: 0, width: 5, height: 10 });
    const response = await form([
      ...(await base()),
      ['image', pngBlob(picture)],
      ['mask', pngBlob(mask)],
      ['n', '2'],
    ]);
    await okJson(response);
    expect(gateway.receivedEdits()).toEqual([
      {
        requestId: response.headers.get('x-svc-request-id'),
        model: 'flux-schnell',
        body: 'multipart',
        imageField: 'image',
        fields: { model: 'flux-schnell', prompt: 'x', n: '2' },
        image: {
          bytes: picture.length,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          width: 20,
          height: 10,
          format: 'png',
          hasAlpha: false,
        },
        mask: expect.objectContaining({
          width: 20,
          height: 10,
          hasAlpha: true,
          transparent: 50,
          partial: 0,
        }),
      },
    ]);
  });
});
