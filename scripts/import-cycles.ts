// Finds import circles among the project's own modules, `import type` included (ESLint's
// no-cycle rules skip type imports): a circle is a layer that knows too much. Run by `npm run
// lint`; prints each circle and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const FOLDERS = ['main', 'shared', 'renderer', 'test', 'scripts'];
const SKIP = new Set(['node_modules', 'out', 'dist', 'fixtures']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = FOLDERS.flatMap((folder) => sources(join(ROOT, folder)));
const known = new Set(files);
const graph = new Map<string, string[]>();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  graph.set(
    file,
    importedFiles
      .map((each) => each.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((path) => known.has(path)),
  );
}

// Tarjan's strongly connected components: every component of more than one module is a circle
let index = 0;
const order = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const circles: string[][] = [];
function visit(file: string): void {
  order.set(file, index);
  low.set(file, index++);
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!order.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file)!, low.get(next)!));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
  }
  if (low.get(file) !== order.get(file)) return;
  const component: string[] = [];
  let member: string;
  do {
    member = stack.pop()!;
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component);
}
for (const file of files) if (!order.has(file)) visit(file);

if (circles.length > 0) {
  for (const circle of circles) {
    console.error(
      `Import circle: ${circle
        .map((f) => relative(ROOT, f))
        .sort()
        .join(' ↔ ')}`,
    );
  }
  console.error(
    `${circles.length} import circle(s): move what both sides need into a module both import.`,
  );
  process.exit(1);
}
console.log(`No import circle among ${files.length} modules.`);
