import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type Sharp from 'sharp';

/**
 * Loads better-sqlite3 and sharp as the built main process resolves them (from `fromFile`,
 * out/main/index.js) and makes each do real work: a query, an image encoded and read back.
 * Both are Node-API modules, so the binaries npm installed serve Node 24 and Electron alike;
 * a rebuild for Electron (electron-builder's npmRebuild) is what would break them here.
 * Returns their versions, for the check's line.
 */
export async function checkNativeModules(fromFile: string): Promise<string> {
  const require = createRequire(fromFile);
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(':memory:');
  let sqlite: string;
  try {
    sqlite = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
  } finally {
    db.close();
  }
  const { default: sharp } = (await import(pathToFileURL(require.resolve('sharp')).href)) as {
    default: typeof Sharp;
  };
  const png = await sharp({
    create: { width: 3, height: 2, channels: 3, background: '#336699' },
  })
    .png()
    .toBuffer();
  const { width, height, format } = await sharp(png).metadata();
  if (width !== 3 || height !== 2 || format !== 'png') {
    throw new Error(`sharp read back a ${width}x${height} ${format}, not the 3x2 png it made`);
  }
  return `better-sqlite3 (SQLite ${sqlite}), sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips})`;
}
