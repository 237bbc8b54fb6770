/**
 * Naming figures (not a test): CPU per file name on the engine's path (the template compiled
 * once, rendered per image, then its collision key and its absolute path), for prompts in plain
 * ASCII and for prompts where one in ten is not.
 *   node_modules/.bin/node test/bench/naming.ts [names=200000]
 */
import {
  compileTemplate,
  DEFAULT_TEMPLATE,
  pathKey,
  renderRelativePath,
  resolveInsideLibrary,
  type NamingInput,
} from '../../main/core/library/naming.ts';

const names = Number(process.argv[2] ?? 200_000);
const words = (
  'a red fox in the snow cinematic photograph of an old lighthouse at dusk on a rocky ' +
  'coast 35mm portrait studio light watercolor'
).split(' ');

function inputs(notAscii: number): NamingInput[] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const created = Date.parse('2026-03-04T10:00:00Z');
  return Array.from({ length: 1000 }, (_, i) => {
    const length = 5 + Math.floor(random() * 30);
    let prompt = Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
    if (random() < notAscii) prompt = `Café ${prompt} — 狐狸 🦊`;
    return {
      batch: 'Spring campaign',
      index: i + 1,
      indexWidth: 4,
      image: 1,
      imageCount: 1,
      prompt,
      name: i % 5 === 0 ? `Hero shot ${i}` : null,
      seed: i % 7 === 0 ? null : 1000 + i,
      model: 'img-model',
      size: '1024x1024',
      job: i + 1,
      // a batch's jobs share a few creation times
      date: new Date(created + Math.floor(i / 50)),
      ext: 'png',
    };
  });
}

/** CPU nanoseconds per name (CPU rather than wall time: the machine may be shared). */
function measure(template: string, batch: NamingInput[], whole: boolean): number {
  const compiled = compileTemplate(template);
  const start = process.cpuUsage();
  let length = 0;
  for (let i = 0; i < names; i++) {
    const relPath = renderRelativePath(compiled, batch[i % batch.length]!);
    length += whole
      ? pathKey(relPath).length + resolveInsideLibrary('/home/me/Atelier', relPath).length
      : relPath.length;
  }
  const used = process.cpuUsage(start);
  if (length === 0) throw new Error('no names rendered');
  return ((used.user + used.system) * 1000) / names;
}

for (const [label, notAscii] of [
  ['ASCII prompts', 0],
  ['1 prompt in 10 not ASCII', 0.1],
] as const) {
  const batch = inputs(notAscii);
  measure(DEFAULT_TEMPLATE, batch, true); // warm-up
  for (const [what, template, whole] of [
    ['default template, render', DEFAULT_TEMPLATE, false],
    ['default template, render + pathKey + resolve', DEFAULT_TEMPLATE, true],
    ['{batch}/{date}/{index}-{name}.{ext}, render', '{batch}/{date}/{index}-{name}.{ext}', false],
  ] as const) {
    const ns = measure(template, batch, whole);
    console.log(`${label.padEnd(26)} ${what.padEnd(46)} ${(ns / 1000).toFixed(2)} µs per name`);
  }
}
