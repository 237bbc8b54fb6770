import sharp from 'sharp';
import { expect } from 'vitest';
import type { RunningGateway } from '../../../main/simulator/index.ts';

/** POSTs JSON with the gateway's key (or another `authorization`). */
export function postJson(
  gateway: RunningGateway,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${gateway.key}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

export interface ImageAnswer {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
  upstream_request_id: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ErrorAnswer {
  error: { type: string; code: string; message: string; param: string | null };
}

export async function okJson(response: Response): Promise<ImageAnswer> {
  const body = (await response.json()) as ImageAnswer;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

export async function errorJson(response: Response, status: number): Promise<ErrorAnswer['error']> {
  const body = (await response.json()) as ErrorAnswer;
  expect(response.status, JSON.stringify(body)).toBe(status);
  expect(body.error).toMatchObject({
    type: expect.any(String),
    code: expect.any(String),
    message: expect.any(String),
  });
  return body.error;
}

/** Downloads a returned URL (no key: temporary links are public). */
export async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

export async function pictureOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

/** The one ledger entry of a test, read after the gateway has gone idle. */
export async function onlyEntry(gateway: RunningGateway) {
  await gateway.idle();
  const entries = gateway.ledger.entries();
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

/** A solid-colour PNG to edit. */
export function solidPng(width: number, height: number, rgb: [number, number, number]) {
  return sharp({
    create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } },
  })
    .png()
    .toBuffer();
}

/** Mean absolute channel difference between two pictures, compared at one size. */
export async function pictureDistance(a: Buffer, b: Buffer, size = 64): Promise<number> {
  const raw = (bytes: Buffer) =>
    sharp(bytes).resize(size, size, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([raw(a), raw(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}
