import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCREENSHOTS,
  startDemoUi,
  startUiAgainst,
  type RunningUi,
} from '../../support/atelier-ui.ts';
import { launchChromium } from '../../support/browser.ts';
import { call, eventually } from '../../support/page-helpers.ts';
import { startStandInGateway, type StandInGateway } from '../../support/stand-in-gateway.ts';

/** What the tests read of a `<video>` (the Node project has no DOM types). */
interface VideoLike {
  readyState: number;
  error: unknown;
  duration: number;
  currentTime: number;
  seekable: { length: number; end(i: number): number };
  addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
}

async function open(page: Page, url: string, problems: string[]): Promise<void> {
  page.on('console', (m) => {
    // a failed load is recorded with its address below
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
      problems.push(m.text());
    }
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    // a gateway with no thumbnail variant leaves a video without a poster: the tile asks, is
    // told 404, and shows the video's first frame instead (GalleryTile's VideoPoster)
    const noPoster = r.status() === 404 && /\/thumbs\/[^?]+\.mp4\?/.test(r.url());
    if (r.status() >= 400 && !noPoster) problems.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(url);
  await eventually(() => page.getByRole('heading', { name: 'Prompts' }).isVisible()).toBe(true);
}

const go = (page: Page, screen: string) =>
  page.getByRole('navigation', { name: 'Atelier' }).getByRole('link', { name: screen }).click();

const promptsBox = (page: Page) => page.getByRole('textbox', { name: 'Prompts or templates' });
const panel = (page: Page) => page.getByRole('region', { name: 'Prompt help' });
const suggestions = (page: Page) => page.getByRole('list', { name: 'Suggested prompts' });
const texts = (list: Locator) =>
  list
    .getByRole('textbox')
    .evaluateAll((areas) => areas.map((a) => (a as unknown as { value: string }).value));

/**
 * Records, in the page, how many suggestion rows each change of the list showed: prompts that
 * stream in are seen one by one, an answer that came whole only as its last count.
 */
async function recordRowCounts(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(`(() => {
    const seen = (globalThis.__rowCounts = []);
    new MutationObserver(() => {
      const list = document.querySelector('[aria-label="Suggested prompts"]');
      const n = list ? list.querySelectorAll('textarea').length : 0;
      if (seen.at(-1) !== n) seen.push(n);
    }).observe(document.body, { subtree: true, childList: true });
  })()`);
  return () => page.evaluate('globalThis.__rowCounts') as Promise<number[]>;
}

/** Asks for `count` prompts on `theme` and waits until they are all in. */
async function suggest(page: Page, theme: string, count: number): Promise<void> {
  if (!(await panel(page).isVisible())) {
    await page.getByRole('button', { name: 'Ideas from a theme' }).click();
  }
  await panel(page).getByRole('textbox', { name: 'Theme or idea' }).fill(theme);
  await panel(page).getByRole('spinbutton', { name: 'How many' }).fill(String(count));
  await panel(page)
    .getByRole('button', { name: `Suggest ${count} prompts` })
    .click();
  await eventually(() => panel(page).getByRole('status').first().textContent()).toMatch(
    new RegExp(`^${count} prompts from`),
  );
}

/** The page in light, dark and narrow; `settle` runs after each change (a scroll). */
async function screenshots(
  page: Page,
  name: string,
  settle: () => Promise<unknown> = async () => {},
): Promise<void> {
  for (const [scheme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 720],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    await settle();
    await page.screenshot({
      path: path.join(SCREENSHOTS, `${name}-${scheme}${width < 1000 ? '-narrow' : ''}.png`),
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 1000 });
}

/** Chooses these models (and only these) in the matrix's list of this mode. */
async function chooseModels(page: Page, legend: string, models: string[]): Promise<void> {
  const group = page.getByRole('group', { name: legend });
  await eventually(() => group.getByRole('checkbox').count()).toBeGreaterThan(0);
  for (const box of await group.getByRole('checkbox').all()) {
    if (await box.isChecked()) await box.uncheck();
  }
  for (const model of models) await group.getByRole('checkbox', { name: model }).check();
}

async function runAndOpenQueue(page: Page, name: string, jobs: number): Promise<void> {
  await page.getByRole('textbox', { name: 'Batch name' }).fill(name);
  await eventually(() => page.getByRole('button', { name: /^Run Ctrl/ }).isEnabled()).toBe(true);
  await page.getByRole('button', { name: /^Run Ctrl/ }).click();
  await page.getByText(`Batch “${name}” queued: ${jobs} job${jobs === 1 ? '' : 's'}`).waitFor();
  await go(page, 'Queue');
  await page.getByRole('button', { name: `Show jobs of ${name}` }).click();
}

/**
 * Opens the video of the gallery tile named `prompt` and seeks it: the browser asks the host
 * for byte ranges of the signed media URL, and the position lands where it was asked.
 */
async function playAndSeek(page: Page, prompt: string, search: string): Promise<void> {
  const ranges: string[] = [];
  page.on('request', (request) => {
    const range = request.headers()['range'];
    if (range && /\/media\//.test(request.url())) ranges.push(range);
  });
  await go(page, 'Gallery');
  await page.getByRole('searchbox', { name: 'Search prompts' }).fill(search);
  const tile = page
    .getByRole('grid', { name: 'Images' })
    .getByRole('gridcell', { name: `${prompt} (video)` });
  await tile.waitFor({ timeout: 60_000 });
  // (named "Image …" until its details say it is a video)
  const dialog = page.getByRole('dialog', { name: /^(Image|Video) \d+ of/ });
  // a double click that lands as the grid redraws (the poster written) is two single clicks
  await eventually(async () => {
    if (!(await dialog.isVisible())) await tile.dblclick();
    return dialog.isVisible();
  }).toBe(true);
  const video = dialog.locator('video');
  await eventually(() => video.evaluate((v: VideoLike) => v.readyState)).toBeGreaterThan(0);
  expect(await video.evaluate((v: VideoLike) => v.error)).toBe(null);
  const duration = await video.evaluate((v: VideoLike) => v.duration);
  expect(duration).toBeGreaterThan(2);
  // the whole clip can be sought: the host answers Range requests
  expect(await video.evaluate((v: VideoLike) => v.seekable.length > 0 && v.seekable.end(0))).toBe(
    duration,
  );
  const landed = await video.evaluate(
    (v: VideoLike, at: number) =>
      new Promise<number>((done) => {
        v.addEventListener('seeked', () => done(v.currentTime), { once: true });
        v.currentTime = at;
      }),
    duration - 1,
  );
  expect(landed).toBeCloseTo(duration - 1, 0);
  expect(ranges.length).toBeGreaterThan(0);
}

describe('prompt help and video in atelier ui --demo', () => {
  let ui: RunningUi;
  let browser: Browser;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ ui, browser, stop } = await startDemoUi('prompt-help'));
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  it('turns a theme into five prompts streamed in, keeps two, regenerates the rest, and runs them', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await promptsBox(page).fill('');
    const counts = await recordRowCounts(page);
    await suggest(page, 'a night market in the rain', 5);
    // they came one by one as the model wrote them, not as one answer at the end
    const seen = await counts();
    expect(seen.at(-1)).toBe(5);
    expect(seen.some((n) => n > 0 && n < 5)).toBe(true);
    const first = await texts(suggestions(page));
    expect(first).toHaveLength(5);
    expect(new Set(first).size).toBe(5);
    for (const text of first) expect(text.toLowerCase()).toContain('night market');

    await panel(page).getByRole('checkbox', { name: 'Keep prompt 1' }).check();
    await panel(page).getByRole('checkbox', { name: 'Keep prompt 3' }).check();
    await panel(page).getByRole('textbox', { name: 'Prompt 3' }).fill(`${first[2]} Edited.`);
    await panel(page).getByRole('button', { name: 'Regenerate the rest (3)' }).click();
    await eventually(() => panel(page).getByRole('status').first().textContent()).toMatch(
      /^3 new prompts from gpt-4o-mini, beside the 2 kept\.$/,
    );
    const second = await texts(suggestions(page));
    expect(second.slice(0, 2)).toEqual([first[0], `${first[2]} Edited.`]);
    expect(second).toHaveLength(5);
    // the new ones are new: none of the five seen before comes back
    for (const text of second.slice(2)) expect(first).not.toContain(text);
    // the panel's foot (its actions) above the sticky run bar
    await screenshots(page, 'prompt-help-panel', () =>
      panel(page).evaluate((e: { scrollIntoView(o: object): void }) =>
        e.scrollIntoView({ block: 'end' }),
      ),
    );

    await panel(page).getByRole('button', { name: 'Add all 5' }).click();
    expect((await promptsBox(page).inputValue()).split('\n')).toEqual(second);
    await chooseModels(page, 'Models', ['flux-schnell']);
    await page.getByRole('textbox', { name: 'Sizes' }).fill('256x256');
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('5 jobs · 5 images');
    await runAndOpenQueue(page, 'night market ideas', 5);
    const row = page.getByRole('listitem', { name: 'night market ideas' });
    await eventually(() => row.textContent()).toContain('Finished');
    expect(await row.textContent()).toContain('5 / 5');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('expands a prompt and adds variations of another, each undone; cancels a long request at once', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await promptsBox(page).fill('a red fox\nan old tram');
    await promptsBox(page).click();
    await page.keyboard.press('Control+Home');
    const tools = page.getByRole('group', { name: 'Prompt tools' });
    expect(await tools.textContent()).toContain('Line 1: a red fox');
    await tools.getByRole('button', { name: 'Expand' }).click();
    const undoExpand = tools.getByRole('button', { name: 'Undo expand line 1' });
    await undoExpand.waitFor();
    const [expanded, tram] = (await promptsBox(page).inputValue()).split('\n');
    expect(expanded!.length).toBeGreaterThan('a red fox'.length + 40);
    expect(expanded!.toLowerCase()).toContain('red fox');
    expect(tram).toBe('an old tram');
    await undoExpand.click();
    expect(await promptsBox(page).inputValue()).toBe('a red fox\nan old tram');

    await promptsBox(page).click();
    await page.keyboard.press('Control+End');
    await tools.getByRole('spinbutton', { name: 'How many variations' }).fill('2');
    await tools.getByRole('button', { name: 'Variations' }).click();
    await tools.getByRole('button', { name: 'Undo 2 variations of line 2' }).waitFor();
    const varied = (await promptsBox(page).inputValue()).split('\n');
    expect(varied.slice(0, 2)).toEqual(['a red fox', 'an old tram']);
    expect(varied).toHaveLength(4);
    for (const line of varied.slice(2)) expect(line.toLowerCase()).toContain('old tram');
    await tools.getByRole('button', { name: 'Undo 2 variations of line 2' }).click();
    expect(await promptsBox(page).inputValue()).toBe('a red fox\nan old tram');

    // a hundred prompts take a while: Cancel stops the request, what came is kept
    await page.getByRole('button', { name: 'Ideas from a theme' }).click();
    await panel(page).getByRole('textbox', { name: 'Theme or idea' }).fill('harbour cranes');
    await panel(page).getByRole('spinbutton', { name: 'How many' }).fill('100');
    await panel(page).getByRole('button', { name: 'Suggest 100 prompts' }).click();
    await eventually(() => panel(page).getByRole('status').first().textContent()).toMatch(
      /is writing… [1-9]\d* of 100/,
    );
    await panel(page).getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => panel(page).getByRole('status').first().textContent()).toMatch(
      /^Canceled: the \d+ prompts? that came are kept\.$/,
    );
    const kept = await texts(suggestions(page));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(100);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("cuts each prompt to the target model's limit, and says so on its row", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await call(page, 'models', 'saveUserEntries', {
      entries: [
        { kind: 'image', id: 'short-sdxl', protocol: 'openai', sizes: 'any', maxPromptChars: 60 },
        // the simulator's chatty model numbers its list and forgets the length it was asked
        { kind: 'text', id: 'qwen-plus' },
      ],
    });
    await chooseModels(page, 'Models', ['short-sdxl']);
    await page.getByRole('button', { name: 'Ideas from a theme' }).click();
    const model = panel(page).getByRole('combobox', { name: 'Text model' });
    await eventually(() => model.getByRole('option', { name: 'qwen-plus' }).count()).toBe(1);
    await model.selectOption('qwen-plus');
    expect(await panel(page).textContent()).toContain(
      'Written for short-sdxl, each at most 60 characters.',
    );
    await suggest(page, 'a lighthouse keeper in winter', 3);
    const rows = await texts(suggestions(page));
    expect(rows).toHaveLength(3);
    for (const text of rows) expect(Array.from(text).length).toBeLessThanOrEqual(60);
    expect(await suggestions(page).textContent()).toMatch(
      /Cut to \d+ characters, the prompt limit of short-sdxl \(the model wrote \d+\)\./,
    );
    await panel(page).screenshot({ path: path.join(SCREENSHOTS, 'prompt-help-cut.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('composes a video, follows its progress in the queue, and plays it in the gallery with seeking', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await promptsBox(page).fill('a paper boat drifting down a rainy street');
    await page
      .getByRole('radiogroup', { name: 'Make' })
      .getByRole('radio', { name: 'Videos' })
      .check();
    await chooseModels(page, 'Video models', ['sora-2']);
    await page
      .getByRole('group', { name: 'Size choices' })
      .getByRole('button', { name: '1280x720' })
      .click();
    await page
      .getByRole('group', { name: 'Duration choices' })
      .getByRole('button', { name: '4 s' })
      .click();
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('1 job · 1 video');
    const preview = page.getByRole('list', { name: 'Expanded jobs' });
    expect(await preview.textContent()).toContain('sora-2 · 1280x720 · 4 s');
    await screenshots(page, 'compose-video-mode');

    // every text the job's row shows, as it changes (the task takes three seconds)
    await page.evaluate(`(() => {
      const seen = (globalThis.__rowTexts = []);
      new MutationObserver(() => {
        const row = document.querySelector('[role="listbox"][aria-label="Jobs"] [role="option"]');
        const text = row ? row.textContent : '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await runAndOpenQueue(page, 'paper boats', 1);
    const jobs = page.getByRole('listbox', { name: 'Jobs' });
    // a picture of the progress chip, when the page is caught in the task's three seconds
    await jobs
      .getByText(/in progress \d+%/)
      .waitFor({ timeout: 5_000 })
      .then(
        () => page.screenshot({ path: path.join(SCREENSHOTS, 'video-job-progress-light.png') }),
        () => undefined,
      );
    await eventually(() => jobs.getByRole('option').first().textContent()).toContain('succeeded');
    const shown = (await page.evaluate('globalThis.__rowTexts')) as string[];
    expect(shown.some((text) => /running.*(submitted|in progress \d+%)/.test(text))).toBe(true);
    expect(shown.some((text) => /in progress \d+%/.test(text))).toBe(true);
    await playAndSeek(page, 'a paper boat drifting down a rainy street', 'paper boat');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('prompt help and video against a gateway other than the simulator', () => {
  const IDEAS = [
    '**Lantern-lit stalls steaming with dumplings**, rain on the awnings',
    'A café owner closing shutters at dusk — neon puddles below',
    '"Umbrellas crowding a narrow alley of fruit vendors"',
    'A child choosing a paper kite from a hanging wall of them',
    'Fishmongers under bare bulbs, ice glittering on the counter',
    'An old man repairing radios by torchlight',
    'Tea steam rising past a hand-painted menu board',
    'A tram gliding past the market, windows fogged',
  ];
  let gateway: StandInGateway;
  let ui: RunningUi;
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    gateway = await startStandInGateway({
      models: ['gpt-4o-mini', 'gpt-image-1', 'stand-in-video', 'sora-2', 'kling-v2', 'locked-llm'],
      forbidden: ['kling-v2', 'locked-llm'],
      ideas: IDEAS,
      holdVideos: true,
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-stand-in-'));
    ui = await startUiAgainst(gateway, path.join(dir, 'data'), path.join(dir, 'library'));
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams five prompts from its chat stream (split anywhere, no [DONE]) and runs them', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await page.getByRole('button', { name: 'Ideas from a theme' }).click();
    // no text model is chosen in Settings: one is picked here and then
    expect(await panel(page).getByRole('combobox', { name: 'Text model' }).inputValue()).toBe('');
    await expect
      .poll(() => panel(page).getByRole('button', { name: 'Suggest 5 prompts' }).isDisabled())
      .toBe(true);
    await panel(page).getByRole('combobox', { name: 'Text model' }).selectOption('gpt-4o-mini');
    await suggest(page, 'a night market in the rain', 5);
    // the preamble dropped, list numbers, emphasis and quotes stripped, the é and — whole
    expect(await texts(suggestions(page))).toEqual([
      'Lantern-lit stalls steaming with dumplings, rain on the awnings',
      'A café owner closing shutters at dusk — neon puddles below',
      'Umbrellas crowding a narrow alley of fruit vendors',
      IDEAS[3],
      IDEAS[4],
    ]);
    await panel(page).getByRole('button', { name: 'Add all 5' }).click();
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('5 jobs · 5 images');
    await runAndOpenQueue(page, 'market ideas', 5);
    const row = page.getByRole('listitem', { name: 'market ideas' });
    await eventually(() => row.textContent()).toContain('Finished');
    expect(await row.textContent()).toContain('5 / 5');
    expect(gateway.requests.filter((r) => r === 'POST /v1/images/generations')).toHaveLength(5);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('says what the gateway said when the key may not use the text model', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await open(page, await ui.newAddress(), []);
    await call(page, 'models', 'saveUserEntries', {
      entries: [{ kind: 'text', id: 'locked-llm' }],
    });
    await page.getByRole('button', { name: 'Ideas from a theme' }).click();
    const model = panel(page).getByRole('combobox', { name: 'Text model' });
    await eventually(() => model.getByRole('option', { name: 'locked-llm' }).count()).toBe(1);
    await model.selectOption('locked-llm');
    await panel(page).getByRole('textbox', { name: 'Theme or idea' }).fill('harbour cranes');
    await panel(page)
      .getByRole('button', { name: /^Suggest/ })
      .click();
    const alert = panel(page).getByRole('alert');
    // the gateway's own words, and what to do about them
    await eventually(() => alert.textContent()).toContain(
      'This key may not use locked-llm: request access for it in the console.',
    );
    expect(await alert.textContent()).toContain('Choose another text model for prompt help');
    await panel(page).screenshot({ path: path.join(SCREENSHOTS, 'prompt-help-refused.png') });
    await page.close();
  }, 60_000);

  it('follows a video task through its own statuses, overdue but never resubmitted, then plays it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await call(page, 'models', 'saveUserEntries', {
      entries: [
        { kind: 'text', id: 'locked-llm' },
        {
          kind: 'video',
          id: 'stand-in-video',
          seconds: ['3', '6'],
          sizes: ['1280x720', '720x1280'],
          usualSeconds: 2,
        },
      ],
    });
    await promptsBox(page).fill('lanterns swaying over a wet street');
    await page
      .getByRole('radiogroup', { name: 'Make' })
      .getByRole('radio', { name: 'Videos' })
      .check();
    // the key may not use kling-v2: the check says so before anything runs
    await chooseModels(page, 'Video models', ['kling-v2']);
    await eventually(() =>
      page.getByRole('list', { name: 'What the gateway says' }).textContent(),
    ).toContain("The gateway's list of models for this key leaves out kling-v2.");
    await chooseModels(page, 'Video models', ['stand-in-video']);
    await page
      .getByRole('group', { name: 'Duration choices' })
      .getByRole('button', { name: '3 s' })
      .click();
    await page
      .getByRole('group', { name: 'Size choices' })
      .getByRole('button', { name: '1280x720' })
      .click();
    await eventually(() => page.getByLabel('Job count').textContent()).toBe('1 job · 1 video');
    await eventually(() => page.getByRole('list', { name: 'What the gateway says' }).count()).toBe(
      0,
    );
    await runAndOpenQueue(page, 'lanterns', 1);

    // `rendering` is no status Atelier knows: still pending; past its usual 2 s, overdue
    const row = page.getByRole('listbox', { name: 'Jobs' }).getByRole('option').first();
    await eventually(() => row.textContent()).toMatch(/running.*pending \(rendering\)/);
    await eventually(() => row.textContent()).toContain('overdue: checking');
    // its elapsed time ticks in the row while the task runs
    await eventually(() => row.textContent()).toMatch(/overdue: checking[1-9]\d* s/);
    expect(await page.getByRole('listitem', { name: 'lanterns' }).textContent()).toContain(
      '0 videos',
    );
    await screenshots(page, 'video-job-running');
    await row.click();
    const details = page.getByRole('complementary', { name: 'Job details' });
    await eventually(() => details.textContent()).toMatch(/Task id\s*vt-1/);
    expect(await details.textContent()).toContain('pending (rendering)');
    expect(await details.textContent()).toContain('Overdue: checking.');
    await screenshots(page, 'video-job-details');
    await details.getByRole('button', { name: 'Close job details' }).click();

    gateway.release();
    await eventually(() => row.textContent()).toContain('succeeded');
    // its batch counts a video, never "0 images"
    const card = page.getByRole('listitem', { name: 'lanterns' });
    await eventually(() => card.textContent()).toContain('1 video');
    expect(await card.textContent()).not.toContain('image');
    // overdue, checked again and again, yet submitted once
    expect(gateway.requests.filter((r) => r === 'POST /v1/videos')).toHaveLength(1);
    expect(
      gateway.requests.filter((r) => r === 'GET /v1/videos/vt-1').length,
    ).toBeGreaterThanOrEqual(5);
    await playAndSeek(page, 'lanterns swaying over a wet street', 'lanterns');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('says plainly, in Compose and on the job, that the key may not use a video model', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    await open(page, await ui.newAddress(), problems);
    await promptsBox(page).fill('a kite over the dunes');
    await page
      .getByRole('radiogroup', { name: 'Make' })
      .getByRole('radio', { name: 'Videos' })
      .check();
    await chooseModels(page, 'Video models', ['kling-v2']);
    // the draft kept the last test's choices: these are typed whole
    await page.getByRole('textbox', { name: 'Sizes' }).fill('1280x720');
    await page.getByRole('textbox', { name: 'Durations (seconds)' }).fill('5');
    const said = page.getByRole('list', { name: 'What the gateway says' });
    await eventually(() => said.textContent()).toContain(
      "The gateway's list of models for this key leaves out kling-v2.",
    );
    await page
      .getByRole('region', { name: 'Preview' })
      .screenshot({ path: path.join(SCREENSHOTS, 'compose-video-no-access.png') });
    // run anyway: the gateway's refusal is the job's, in its words
    await runAndOpenQueue(page, 'kites', 1);
    const row = page.getByRole('listbox', { name: 'Jobs' }).getByRole('option').first();
    // a refusal of the key pauses the queue (the next job would be refused too): the job waits
    await eventually(() => row.textContent()).toContain(
      'This key may not use kling-v2: request access for it in the console.',
    );
    expect(await row.textContent()).toContain('choose another model, then resume the queue');
    await row.click();
    const details = page.getByRole('complementary', { name: 'Job details' });
    await eventually(() => details.textContent()).toContain(
      'This key may not use kling-v2: request access for it in the console.',
    );
    // the job waits, it has not failed: its last answer is said as such
    expect(await details.getByText(/^Last answer: The gateway refused permission/).count()).toBe(1);
    await details.screenshot({ path: path.join(SCREENSHOTS, 'video-job-no-access.png') });
    expect(gateway.requests.filter((r) => r === 'POST /v1/video/generations')).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
