/**
 * `npm run check:desktop`: the desktop app as `npm run build` leaves it (out/main, out/preload,
 * out/renderer), booted under plain Node 24 with test/desktop/electron-stand-in/ mapped in
 * for `electron` at resolution, then driven through its preload as the page would drive it.
 * What it proves and what it cannot: docs/desktop.md.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DESKTOP_NEED, ensureAppBuilt } from '../../main/cli/app-build/ensure-built.ts';
import { contractMethods } from '../../shared/api/channels.ts';
import type { Result } from '../../shared/api/errors.ts';
import type { ApiEvent, ApiEventOf, EventBatch } from '../../shared/api/events.ts';
import { callEveryMethod, everyMethod } from '../support/every-method.ts';
import { app, BrowserWindow, ipcMain, preventable, standIn } from './electron-stand-in/index.ts';
import { checkNativeModules } from './native-modules.ts';
import { runSandboxedPreload } from './sandboxed-preload.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * The desktop client's own `mediaUrl`, so the media URLs asked for are the page's (with the
 * image's version). Browser code, which renderer/tsconfig.json checks: a computed specifier
 * keeps this (Node) project from checking it.
 */
type MediaUrl = (relPath: string, kind: 'image' | 'thumb', owner: Owner) => string;
interface Owner {
  id: number;
  createdAt: number;
}
const { connect } = (await import(`${'../../renderer/src/api/client.ts'}`)) as {
  connect: (win: { atelier: unknown; location: { origin: string } }) => { mediaUrl: MediaUrl };
};
/** (the client needs an API to be the desktop's: one that answers nothing, as URLs call none) */
const noCalls = new Proxy({}, { get: () => new Proxy({}, { get: () => () => {} }) });
const { mediaUrl } = connect({ atelier: noCalls, location: { origin: 'atelier://app' } });
/** A library file no image owns: its URL names a version all the same, as the page's would. */
const NO_OWNER: Owner = { id: 0, createdAt: 0 };
const BUILT_MAIN = join(ROOT, 'out', 'main', 'index.js');
const STAND_IN = pathToFileURL(join(import.meta.dirname, 'electron-stand-in', 'index.ts')).href;
/** The whole check; a step that hangs fails it with its name. */
const DEADLINE_MS = 120_000;

type Call = (area: string, method: string, input?: unknown) => Promise<Result<unknown>>;
type PageApi = Record<string, Record<string, (input?: unknown) => Promise<Result<unknown>>>> & {
  events: { subscribe(cursor: null, listener: (batch: EventBatch) => void): () => void };
};

// ---- output ----------------------------------------------------------------------------------

let current = 'starting';

/** One step: its line when it passes (with what it found), or its name when it fails. */
async function step(title: string, run: () => Promise<string | void> | string | void) {
  current = title;
  const started = performance.now();
  const detail = await run();
  const ms = Math.round(performance.now() - started);
  console.log(`  ✓ ${title}${detail ? `: ${detail}` : ''} (${ms} ms)`);
}

/** What the app logged (its logger writes to the console), shown indented and kept. */
const appLog: Array<{ level: 'info' | 'warn' | 'error'; text: string }> = [];
for (const level of ['info', 'warn', 'error'] as const) {
  const write = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    const text = args
      .map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a)))
      .join(' ');
    appLog.push({ level, text });
    write(`      ${level === 'info' ? '' : `${level}: `}${text}`);
  };
}

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    if (standIn.errorBoxes.length > 0) {
      const box = standIn.errorBoxes[0]!;
      throw new Error(`the app showed an error box: ${box.title}: ${box.content}`);
    }
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

function ok<T>(result: Result<unknown>, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

// ---- the check -------------------------------------------------------------------------------

async function check(): Promise<void> {
  console.log('check:desktop: the built desktop app, booted under Node with a stand-in Electron');
  await ensureAppBuilt({ need: DESKTOP_NEED, say: (line) => console.log(`  ${line}`) });

  await step('native modules load under Node as the bundle resolves them', () =>
    checkNativeModules(BUILT_MAIN),
  );

  const root = mkdtempSync(join(tmpdir(), 'atelier-desktop-check-'));
  try {
    await bootAndDrive(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function bootAndDrive(root: string): Promise<void> {
  // the environment a person's shell could have must not change what is proved
  delete process.env['ATELIER_API_KEY'];
  delete process.env['ELECTRON_RENDERER_URL'];
  standIn.configure({ root, appPath: ROOT });
  registerHooks({
    resolve: (specifier, context, nextResolve) =>
      specifier === 'electron'
        ? { url: STAND_IN, shortCircuit: true }
        : nextResolve(specifier, context),
  });

  let window!: BrowserWindow;
  await step('out/main/index.js boots: window, IPC, atelier: protocol, menu', async () => {
    await import(pathToFileURL(BUILT_MAIN).href);
    // registered before the app is ready (the stand-in refuses it after, as Electron does)
    const privileges = standIn.privilegesOf('atelier') ?? {};
    for (const privilege of ['standard', 'secure', 'supportFetchAPI', 'stream']) {
      assert.equal(privileges[privilege], true, `atelier: is privileged with ${privilege}`);
    }
    await standIn.launch();
    window = await until('the window', () => BrowserWindow.getAllWindows()[0]);
    await until('the menu, set last before the queue starts', () => standIn.applicationMenu);
    await until('the first page to load', () => window.webContents.getURL() !== 'about:blank');
    return `${standIn.ipc.channels().length} IPC channels, page ${window.webContents.getURL()}`;
  });

  await step('the window is sandboxed, isolated, without Node, with a preload on disk', () => {
    const preferences = window.options['webPreferences'] as Record<string, unknown>;
    assert.equal(preferences['sandbox'], true);
    assert.equal(preferences['contextIsolation'], true);
    assert.equal(preferences['nodeIntegration'], false);
    assert.notEqual(preferences['webSecurity'], false);
    const preload = preferences['preload'];
    assert.ok(typeof preload === 'string' && isAbsolute(preload), 'the preload path is absolute');
    assert.ok(existsSync(preload), `the preload ${preload} exists`);
    return preload.slice(ROOT.length + 1);
  });

  let api!: PageApi;
  await step('the preload runs sandboxed and exposes exactly the contract', () => {
    const page = runSandboxedPreload(window.webContents);
    assert.deepEqual(Object.keys(page.mainWorld), ['atelier'], 'one name on window: atelier');
    api = page.mainWorld['atelier'] as PageApi;
    const exposed = Object.entries(api)
      .flatMap(([area, methods]) =>
        Object.entries(methods).map(([method, fn]) =>
          typeof fn === 'function' ? `${area}.${method}` : `${area}.${method} (a ${typeof fn})`,
        ),
      )
      .sort();
    const contract = contractMethods()
      .map(({ area, method }) => `${area}.${method}`)
      .concat('events.subscribe')
      .sort();
    assert.deepEqual(exposed, contract);
    return `window.atelier: ${contract.length - 1} methods and events.subscribe`;
  });
  const call: Call = (area, method, input = {}) => api[area]![method]!(input);
  const events: ApiEvent[] = [];
  api.events.subscribe(null, (batch) => events.push(...batch.events));

  let libraryDir!: string;
  await step('the service answers through the preload: a desktop, in demo mode', async () => {
    ok(await call('settings', 'update', { gateway: { kind: 'demo' } }), 'settings.update');
    const info = ok<{ host: string; demo: boolean; version: string }>(
      await call('app', 'info'),
      'app.info',
    );
    assert.equal(info.host, 'desktop');
    assert.equal(info.demo, true);
    libraryDir = ok<{ libraryDir: string }>(
      await call('library', 'info'),
      'library.info',
    ).libraryDir;
    assert.ok(
      libraryDir.startsWith(root),
      `the library ${libraryDir} is inside the stand-in's folders`,
    );
    return `version ${info.version}, library ${libraryDir.slice(root.length)}`;
  });

  await step('the key is sealed by safeStorage, never written in clear', async () => {
    const key = 'sk-check-desktop-0123456789';
    const status = ok<{ set: boolean; source: string | null }>(
      await call('key', 'set', { key }),
      'key.set',
    );
    assert.deepEqual([status.set, status.source], [true, 'stored']);
    const file = join(app.getPath('userData'), 'api-key.bin');
    assert.ok(existsSync(file), `${file} was written`);
    assert.ok(!readFileSync(file).includes(key), 'the key file does not hold the key in clear');
    ok(await call('key', 'clear'), 'key.clear');
    assert.ok(!existsSync(file), 'key.clear removes the file');
  });

  const { finished, images } = await runDemoBatch(call, events, () => libraryDir);

  await step(
    'atelier: serves the page with its CSP, thumbnails, and video by byte range',
    async () => {
      const page = await standIn.fetch(window.webContents.getURL());
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      const html = await page.text();
      const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
      assert.ok(script, 'index.html names its script');
      const js = await standIn.fetch(new URL(script, window.webContents.getURL()).href);
      assert.equal(js.status, 200, `${script} is served`);
      assert.match(js.headers.get('content-type') ?? '', /javascript/);
      await js.body?.cancel(); // an unread body would hold the file open until a GC closes it

      const image = images.find((i) => i.kind === 'image' && i.relPath);
      assert.ok(image?.relPath, 'the batch wrote an image');
      const thumb = await standIn.fetch(mediaUrl(image.relPath, 'thumb', image));
      assert.equal(thumb.status, 200);
      assert.equal(thumb.headers.get('content-type'), 'image/webp');
      assert.equal(
        Buffer.from(await thumb.arrayBuffer())
          .subarray(8, 12)
          .toString(),
        'WEBP',
      );

      const video = images.find((i) => i.kind === 'video' && i.relPath);
      assert.ok(video?.relPath, 'the batch wrote a video');
      const bytes = readFileSync(join(libraryDir, video.relPath));
      const from = Math.floor(bytes.length / 2);
      const seek = await standIn.fetch(
        new Request(mediaUrl(video.relPath, 'image', video), {
          headers: { range: `bytes=${from}-` },
        }),
      );
      assert.equal(seek.status, 206, 'a seek into the video is answered 206');
      assert.equal(
        seek.headers.get('content-range'),
        `bytes ${from}-${bytes.length - 1}/${bytes.length}`,
      );
      assert.equal(seek.headers.get('content-type'), 'video/mp4');
      assert.ok(Buffer.from(await seek.arrayBuffer()).equals(bytes.subarray(from)));
      return `index.html, ${script}, a thumbnail, ${video.relPath} bytes ${from}-${bytes.length - 1}/${bytes.length}`;
    },
  );

  await step('atelier: refuses what is outside the library or the renderer', async () => {
    writeFileSync(join(root, 'secret.png'), 'SECRET');
    symlinkSync(join(root, 'secret.png'), join(libraryDir, 'link-out.png'));
    const outside = [
      'atelier://media/..%2F..%2F..%2F..%2Fsecret.png',
      'atelier://media/%2e%2e/%2e%2e/%2e%2e/%2e%2e/secret.png',
      mediaUrl('link-out.png', 'image', NO_OWNER),
      mediaUrl('link-out.png', 'thumb', NO_OWNER),
      `atelier://media/${encodeURIComponent(join(root, 'secret.png'))}`,
      'atelier://app/..%2F..%2F..%2Fpackage.json',
      'atelier://elsewhere/secret.png',
    ];
    for (const url of outside) {
      const response = await standIn.fetch(url);
      const body = await response.text();
      assert.equal(response.status, 404, `${url} is refused`);
      assert.ok(!body.includes('SECRET'), `${url} leaks nothing`);
    }
    return `${outside.length} paths, each 404`;
  });

  await step('IPC from anything but the window’s own page is refused', async () => {
    const child = window.webContents.mainFrame.addChild(window.webContents.getURL());
    const framed = runSandboxedPreload(window.webContents, child).mainWorld['atelier'] as PageApi;
    expectForbidden(await framed['app']!['info']!({}), /frame inside the page/);

    const stranger = new BrowserWindow({ webPreferences: window.options['webPreferences'] });
    await stranger.loadURL(window.webContents.getURL());
    const other = runSandboxedPreload(stranger.webContents).mainWorld['atelier'] as PageApi;
    expectForbidden(await other['app']!['info']!({}), /not Atelier's window/);
    stranger.destroy();

    const trusted = window.webContents.mainFrame.url;
    window.webContents.mainFrame.url = 'https://attacker.example/';
    expectForbidden(await call('app', 'info'), /not Atelier's renderer/);
    window.webContents.mainFrame.url = trusted;
    ok(await call('app', 'info'), 'app.info from the page itself');
    return 'a frame inside the page, another window, a page navigated away';
  });

  await step('every contract method answers through the preload', async () => {
    const image = images.find((i) => i.kind === 'image')!;
    // the desktop asks where an export goes: the person picks a file in the temporary root
    standIn.answerSaveDialogs(join(root, 'export-from-the-dialog.zip'));
    const failures = await callEveryMethod(
      everyMethod({ batchId: finished.batchId, jobId: image.jobId, imageId: image.id, libraryDir }),
      (area, method, input) => call(area, method, input),
    );
    assert.deepEqual(failures, []);
    const shell = new Set(standIn.shellCalls.map((c) => c.call));
    for (const used of ['showItemInFolder', 'openPath', 'trashItem']) {
      assert.ok(shell.has(used), `the service called shell.${used} (reveal, open, delete)`);
    }
    return `${contractMethods().length} methods`;
  });

  await step('the shell locks the page down: navigation, new windows, permissions, CSP', () => {
    const contents = window.webContents;
    const navigation = preventable();
    contents.emit('will-navigate', navigation, 'https://attacker.example/');
    assert.ok(navigation.defaultPrevented, 'navigating away is prevented');
    assert.deepEqual(contents.windowOpenHandler?.({ url: 'https://example.com/' }), {
      action: 'deny',
    });
    assert.ok(
      standIn.shellCalls.some(
        (c) => c.call === 'openExternal' && c.target === 'https://example.com/',
      ),
      'an https link opens in the browser',
    );
    contents.windowOpenHandler?.({ url: 'file:///etc/passwd' });
    assert.ok(!standIn.shellCalls.some((c) => c.target.startsWith('file:')), 'file: never opens');
    let granted: boolean | undefined;
    contents.session.permissionRequestHandler?.(
      ...([contents, 'notifications', (allow: boolean) => (granted = allow)] as never[]),
    );
    assert.equal(granted, false, 'permissions are refused');
    const headers = contents.session.headersOf('atelier://app/index.html', {});
    assert.ok(headers['Content-Security-Policy'], 'every response gets the CSP');
    const roles = standIn.applicationMenu!.items.map((item) => item.role);
    for (const role of ['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']) {
      assert.ok(roles.includes(role), `the menu has ${role}`);
    }
  });

  await step('quitting closes the service, then the app', async () => {
    const handlers = standIn.ipc.channels().length;
    assert.ok(handlers > 0 && ipcMain.listenerCount('atelier:events.subscribe') === 1);
    app.quit();
    const code = await Promise.race([
      standIn.quitted(),
      new Promise<never>((_, fail) =>
        setTimeout(() => fail(new Error('the app did not quit within 20 s')), 20_000),
      ),
    ]);
    assert.equal(code, 0);
  });

  const errors = appLog.filter((line) => line.level === 'error');
  assert.deepEqual(errors, [], 'the app logged no error');
}

function expectForbidden(result: Result<unknown>, reason: RegExp): void {
  assert.ok(!result.ok, 'the call was refused');
  assert.equal(result.error.code, 'forbidden');
  assert.match(result.error.message, reason);
}

interface Written {
  id: number;
  createdAt: number;
  jobId: number;
  kind: string;
  relPath: string | null;
}

/** Two images and a video on the demo gateway, followed by the events the page receives. */
async function runDemoBatch(call: Call, events: ApiEvent[], libraryDir: () => string) {
  let finished!: ApiEventOf<'batch.finished'>['payload'];
  let images!: Written[];
  await step('a demo batch runs to the end, its events reaching the page', async () => {
    const batch = ok<{ id: number }>(
      await call('batches', 'create', {
        name: 'Desktop check',
        source: {
          kind: 'rows',
          rows: [
            { prompt: 'A lighthouse on a basalt cliff at dusk', model: 'flux-schnell', n: 2 },
            { prompt: 'Waves breaking at night', model: 'sora-2', extra: { seconds: '4' } },
          ],
        },
      }),
      'batches.create',
    );
    finished = await until(
      'batch.finished',
      () =>
        events.find(
          (e): e is ApiEventOf<'batch.finished'> =>
            e.type === 'batch.finished' && e.payload.batchId === batch.id,
        )?.payload,
      60_000,
    );
    assert.equal(finished.jobs.succeeded, 2, `both jobs succeeded: ${JSON.stringify(finished)}`);
    assert.equal(finished.jobs.failed, 0, 'no job failed');
    assert.equal(finished.downloads.failed, 0, 'no image failed to reach the library');
    images = ok<{ items: Written[] }>(
      await call('images', 'page', { query: { batchId: batch.id } }),
      'images.page',
    ).items;
    assert.equal(images.length, 3, 'two images and a video are in the gallery');
    for (const { relPath } of images) {
      assert.ok(relPath && existsSync(join(libraryDir(), relPath)), `${relPath} is on disk`);
    }
    const types = new Set(events.map((e) => e.type));
    for (const type of ['progress', 'jobs.changed', 'images.written', 'batch.finished']) {
      assert.ok(types.has(type as ApiEvent['type']), `a ${type} event reached the page`);
    }
    const notice = await until('the notification', () =>
      standIn.notifications.find((n) => n.title.includes('Desktop check')),
    );
    await until(
      'the taskbar bar to clear once idle',
      () => standIn.progressBars.at(-1)?.progress === -1,
    );
    assert.ok(
      standIn.progressBars.some((bar) => bar.progress > 0),
      'the taskbar showed progress',
    );
    return `${images.length} files, ${events.length} events; notification "${notice.title}: ${notice.body}"`;
  });
  return { finished, images };
}

const deadline = setTimeout(() => {
  process.stderr.write(`check:desktop: timed out during "${current}"\n`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

try {
  await check();
  console.log('check:desktop: passed');
  process.exit(0);
} catch (error) {
  process.stderr.write(`check:desktop: failed during "${current}":\n`);
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
