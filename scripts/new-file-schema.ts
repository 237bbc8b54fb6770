// Writes main/core/store/schema/new-file.ts: the schema the migrations leave in a new file, as
// one script, which a new data folder's database is created from. Run it after adding a
// migration (`node scripts/new-file-schema.ts`); the store's tests fail until it is.
import BetterSqlite3 from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { latestVersion, migrate } from '../main/core/store/migrations.ts';
import { schemaScript } from '../main/core/store/schema-script.ts';

/** The module's text for the migrations as they are now. */
export function newFileModule(): string {
  const db = new BetterSqlite3(':memory:');
  try {
    db.pragma('foreign_keys = ON');
    migrate(db);
    const sql = schemaScript(db)
      .replaceAll('\\', '\\\\')
      .replaceAll('`', '\\`')
      .replaceAll('${', '\\${');
    return `// Written by scripts/new-file-schema.ts from the migrations: never edited by hand.
import type { SchemaSnapshot } from '../migrations.ts';

/** What the migrations up to version ${latestVersion()} leave in a new file, as one script. */
export const NEW_FILE_SCHEMA: SchemaSnapshot = {
  version: ${latestVersion()},
  sql: \`
${sql}
\`,
};
`;
  } finally {
    db.close();
  }
}

export const NEW_FILE_MODULE = resolve(
  import.meta.dirname,
  '../main/core/store/schema/new-file.ts',
);

if (import.meta.main) {
  writeFileSync(NEW_FILE_MODULE, newFileModule());
  process.stderr.write(`Wrote ${NEW_FILE_MODULE}.\n`);
}
