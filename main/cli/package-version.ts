import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_JSON = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');

/** Atelier's version, as package.json says (what `app.info` reports). */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
  return json.version;
}
