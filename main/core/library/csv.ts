/** RFC 4180 CSV: fields quoted when they hold a comma, quote, CR or LF; rows end with CRLF. */

export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
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
