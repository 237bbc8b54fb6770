/**
 * Names of the entries of one zip: the image's path inside the library (its batch folder
 * kept), made relative and clean, and unique even where case does not count (Windows, macOS
 * unpack `A.png` and `a.png` to one file): a repeat becomes `name (2).ext`.
 */
export class EntryNames {
  private readonly taken = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    for (const name of reserved) this.taken.add(key(name));
  }

  claim(relPath: string): string {
    const clean =
      relPath
        .replace(/\\/g, '/')
        .split('/')
        .filter((part) => part !== '' && part !== '.' && part !== '..')
        .join('/') || 'image';
    let name = clean;
    const slash = clean.lastIndexOf('/');
    const dot = clean.lastIndexOf('.');
    const [stem, ext] = dot > slash + 1 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ''];
    for (let n = 2; this.taken.has(key(name)); n += 1) name = `${stem} (${n})${ext}`;
    this.taken.add(key(name));
    return name;
  }
}

function key(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
