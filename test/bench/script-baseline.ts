/**
 * The hand-written batch script Atelier is measured against (`npm run bench:cli`): a p-queue
 * of `fetch` calls, each generation then its image's download, that stores nothing (no
 * database, no file, no retry, no crash safety). What a person would write in ten minutes.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import PQueue from 'p-queue';

const { values } = parseArgs({
  options: {
    gateway: { type: 'string' },
    key: { type: 'string' },
    prompts: { type: 'string' },
    concurrency: { type: 'string', default: '32' },
    model: { type: 'string', default: 'flux-schnell' },
    size: { type: 'string', default: '64x64' },
  },
});
const prompts = readFileSync(values.prompts!, 'utf8').split('\n').filter(Boolean);
const queue = new PQueue({ concurrency: Number(values.concurrency) });
let images = 0;
for (const prompt of prompts) {
  void queue.add(async () => {
    const response = await fetch(`${values.gateway}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${values.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: values.model, prompt, size: values.size, n: 1 }),
    });
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as { data: Array<{ url: string }> };
    for (const item of answer.data) {
      const image = await fetch(item.url);
      if (!image.ok) throw new Error(`download ${image.status}`);
      await image.arrayBuffer();
      images++;
    }
  });
}
await queue.onIdle();
console.log(JSON.stringify({ prompts: prompts.length, images }));
