import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { makeImage } from '../../support/library-fixtures.ts';
import { runCli, summaryOf, workspace, type CliResult } from './harness.ts';

// A hostile gateway echoes the key in every form it can; none may reach the database, a file,
// stdout or stderr (interface 5.4), and links that carry it must still download.

const KEY = 'sk-Hostile+Key/7f3a9c1e=5b2d4f6a8c0e';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The key as the gateway echoes it: each form a gateway has been seen to send back. */
const ECHOED = [
  KEY,
  KEY.slice(3),
  KEY.toUpperCase(),
  encodeURIComponent(KEY),
  // percent-encoded beyond encodeURIComponent's choice: the hyphen, then every character
  KEY.replaceAll('-', '%2D'),
  [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
  b64(KEY),
  b64(`:${KEY}`),
  b64(`user:${KEY}`),
  `Basic ${b64(`user:${KEY}`)}`,
];
const ECHO = ECHOED.join(' | ');

/** Links that carry the key, one style per image; the file host checks it got it back whole. */
const TOKENS = [
  `token=${KEY}`,
  `token=${encodeURIComponent(KEY)}`,
  `auth=${encodeURIComponent(b64(`user:${KEY}`))}`,
  `t=${KEY.toUpperCase()}`,
  `token=${KEY.replaceAll('-', '%2d')}`,
];

/** RFC 3986 6.2.2: escapes of unreserved characters decoded, the others' hex upper-cased. */
const normalized = (query: string) =>
  query.replace(/%([0-9a-f]{2})/gi, (escaped, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : escaped.toUpperCase();
  });

/**
 * Whether the key can be read from these bytes: 8 of its characters in a row, in any case,
 * URL-encoded, or inside base64 at any offset. Independent of Atelier's own redaction.
 */
function findKey(bytes: Buffer): string | null {
  const text = bytes.toString('latin1');
  const lower = text.toLowerCase();
  const pieces = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
  for (const piece of pieces) {
    for (const form of [piece, encodeURIComponent(piece)]) {
      if (lower.includes(form.toLowerCase())) return `"${form}"`;
    }
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{11,}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) {
      const chars = run.slice(skip).replaceAll('-', '+').replaceAll('_', '/');
      const decoded = Buffer.from(chars.slice(0, chars.length - (chars.length % 4)), 'base64');
      const found = pieces.find((piece) => decoded.toString('latin1').includes(piece));
      if (found) return `base64 of "${found}" in ${run.slice(0, 40)}`;
    }
  }
  for (const run of text.match(/(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9+/=])[A-Za-z0-9+/=%]{10,}/g) ?? []) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      continue;
    }
    if (decoded !== run && findKey(Buffer.from(decoded, 'latin1'))) return `URL-encoded ${run}`;
  }
  return null;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The hostile gateway: images answered with echoing revised prompts, ids and links.
 * `whileRunning` is called when a link is first asked for: the client is mid-run, its
 * database's write-ahead log holds the results just stored.
 */
async function hostileGateway(png: Buffer, whileRunning: () => void) {
  const served: string[] = [];
  let images = 0;
  const goneOnce = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const echoHeaders = { 'x-svc-request-id': `req_${KEY.toUpperCase()}`, 'x-echo': ECHO };
    if (req.method === 'POST' && url === '/v1/images/generations') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { prompt } = JSON.parse(body) as { prompt: string };
        if (prompt.startsWith('refuse')) {
          res.writeHead(400, { 'content-type': 'application/json', ...echoHeaders });
          res.end(
            JSON.stringify({
              error: { type: 'invalid_request_error', code: 'bad', message: `No: ${ECHO}` },
            }),
          );
          return;
        }
        const n = ++images;
        const file = prompt.startsWith('gone') ? `gone-${n}` : `img-${n}`;
        const link = `${base}/files/${file}.png?${TOKENS[n % TOKENS.length]}`;
        res.writeHead(200, {
          'content-type': 'application/json',
          ...echoHeaders,
          'x-svc-request-id': `req_${b64(`user:${KEY}`)}`,
        });
        res.end(
          JSON.stringify({
            created: 1,
            data: [{ url: link, revised_prompt: `${prompt}, revised for ${ECHO}` }],
          }),
        );
      });
      return;
    }
    const file = /^\/files\/([a-z]+-\d+)\.png\?(.*)$/.exec(url);
    if (req.method === 'GET' && file) {
      const [, name = '', query = ''] = file;
      // the link must come back as handed out, key included (the same link by RFC 3986)
      if (!TOKENS.map(normalized).includes(normalized(query))) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `bad token ${query}; wanted ${ECHO}` } }));
        return;
      }
      // a store that answers 404 a while before the file is there
      if (name.startsWith('gone') && !goneOnce.has(name)) {
        goneOnce.add(name);
        whileRunning();
        res.writeHead(404, { 'content-type': 'application/json', ...echoHeaders });
        res.end(JSON.stringify({ error: { code: 'file_expired', message: `gone: ${ECHO}` } }));
        return;
      }
      served.push(name);
      res.writeHead(200, { 'content-type': 'image/png', ...echoHeaders }).end(png);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${url} for ${ECHO}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let ws: ReturnType<typeof workspace> | undefined;
let gateway: Awaited<ReturnType<typeof hostileGateway>> | undefined;
afterEach(async () => {
  ws?.remove();
  await gateway?.close();
  ws = undefined;
  gateway = undefined;
});

describe('the key in any form never reaches the disk or the screen', () => {
  it('not from a hostile gateway echoing it, nor from a --gateway URL carrying it', async () => {
    const scanned = new Set<string>();
    gateway = await hostileGateway(await makeImage('png', 16, 16), () => scanDisk('mid-run'));
    ws = workspace({
      'p.csv': 'prompt\nA red fox\nA grey owl\nrefuse this one\ngone for a while\nA blue jay\n',
      'q.csv': 'prompt\nA green hill\nrefuse again\n',
    });
    const withKey = `http://user:${encodeURIComponent(KEY)}@127.0.0.1:${gateway.port}`;
    const cli = (args: string[]) => runCli(args, { cwd: ws!.dir, key: KEY });
    const outputs: CliResult[] = [];
    const leaks: string[] = [];
    function scanDisk(after: string) {
      for (const file of filesUnder(ws!.dir)) {
        scanned.add(file.slice(ws!.dir.length));
        if (file.endsWith('.csv') && !file.includes('atelier-library')) continue; // the prompts
        let bytes: Buffer;
        try {
          bytes = readFileSync(file);
        } catch {
          continue; // a temporary file renamed into place between the listing and the read
        }
        const found = findKey(bytes);
        if (found) leaks.push(`${after}: ${file.slice(ws!.dir.length)}: ${found}`);
      }
    }
    const step = async (args: string[]) => {
      const result = await cli(args);
      outputs.push(result);
      scanDisk(args.slice(0, 2).join(' '));
      return result;
    };

    const first = await step([
      'run',
      'p.csv',
      '--gateway',
      withKey,
      '--model',
      'flux-schnell',
      '--sidecar',
      '--manifest',
    ]);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('Prompts: 4 succeeded, 1 failed');
    await step(['status']);
    await step(['status', '--json']);
    // the link that answered 404 is asked again, from the stored link, key put back
    const retry = await step(['retry', '--downloads', '--json']);
    expect(summaryOf(retry).images).toMatchObject({ onDisk: 4, failedDownloads: 0 });
    const second = await step(['run', 'q.csv', '--model', 'flux-schnell', '--json']);
    expect(summaryOf(second).jobs).toMatchObject({ succeeded: 1, failed: 1 });
    // a configuration error quotes the address it refuses
    const refused = await step([
      'run',
      'q.csv',
      '--gateway',
      `ftp://u:${encodeURIComponent(KEY)}@h`,
    ]);
    expect(refused.code).toBe(2);

    // every link was fetched with the key in it, as the gateway gave it
    expect(gateway.served).toHaveLength(5);
    expect(ws.files('atelier-library', 'p').filter((f) => f.endsWith('.png'))).toHaveLength(4);
    const printed = outputs.flatMap((result) => [result.stdout, result.stderr]).join('\n');
    expect(printed).toContain('sk-…(redacted)');
    expect(printed).not.toMatch(/\(redacted\)\s*sk-…\(redacted\)/);
    // the database mid-run (with its write-ahead log), the settings, the library's files
    expect([...scanned]).toEqual(
      expect.arrayContaining([
        '/.atelier-data/atelier.db',
        '/.atelier-data/atelier.db-wal',
        '/.atelier-data/settings.json',
        '/atelier-library/p/manifest.csv',
        // (a new data folder's names carry the model and the size)
        expect.stringMatching(/^\/atelier-library\/p\/0001-a-red-fox-[\w-]+\.json$/),
        expect.stringMatching(/^\/atelier-library\/p\/0001-a-red-fox-[\w-]+\.png$/),
      ]),
    );
    // what the gateway echoed was kept, without the key: links sealed, texts redacted
    const db = new Database(ws.path('.atelier-data', 'atelier.db'), { readonly: true });
    const stored = db
      .prepare('SELECT source_url AS url, revised_prompt AS revised FROM images')
      .all() as Array<{ url: string; revised: string }>;
    const ids = db.prepare('SELECT request_id AS id FROM attempts').all() as Array<{ id: string }>;
    db.close();
    expect(stored).toHaveLength(5);
    for (const { url, revised } of stored) {
      expect(url).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/files\/[a-z]+-\d+\.png\?\w+=.*\(atelier-key:\d+:[0-9a-f]{8}\)/,
      );
      expect(revised).toContain(', revised for sk-…(redacted) | ');
    }
    expect(ids.map(({ id }) => id)).toContain('req_sk-…(redacted)');
    const onScreen = findKey(Buffer.from(printed, 'latin1'));
    expect(onScreen, `printed: ${onScreen}`).toBeNull();
    expect(leaks).toEqual([]);
  }, 60_000); // several CLI runs: past 20 s on a loaded two-core machine, seconds alone
});
