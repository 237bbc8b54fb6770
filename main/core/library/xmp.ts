import {
  cutAt,
  promptPreview,
  SOFTWARE_NAME,
  type EmbeddedJson,
  type ImageMetadata,
} from './metadata.ts';

/** Our XMP namespace; the full metadata lives in one JSON-valued property there. */
export const ATELIER_XMP_NAMESPACE = 'http://ns.atelier.app/xmp/1.0/';

/**
 * Anything escapeXml drops (or turns into &#13;): CR, characters XML 1.0 cannot carry, and lone
 * surrogates (a well-formed pair does not match). JSON.stringify output never contains any of
 * it, so the JSON copy (whose quotes always need escaping) skips the last three replaces.
 */
const XML_NEEDS_DROP =
  // eslint-disable-next-line no-control-regex
  /[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Anything escapeXml changes at all. Most metadata strings (dates, typical prompts) contain none
 * of it, so one non-global test lets them skip the whole replace chain, a measurable share of the
 * per-image cost of embedding metadata.
 */
const XML_NEEDS_ESCAPE = new RegExp(`[&<>"]|${XML_NEEDS_DROP.source}`);

/** Escapes text for XML element content or a double-quoted attribute. */
export function escapeXml(text: string): string {
  if (!XML_NEEDS_ESCAPE.test(text)) return text;
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  if (!XML_NEEDS_DROP.test(text)) return escaped;
  return (
    escaped
      // A parser would turn a bare CR into LF; keep it as a character reference.
      .replace(/\r/g, '&#13;')
      // Characters XML 1.0 cannot carry at all, even as references: dropped from the
      // human-readable copy (the JSON copy escapes them instead). Kept as separate steps, in
      // this order: dropping a control character can join the two halves of a surrogate pair.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
  );
}

export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_match, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const codePoint = lower.startsWith('#x')
      ? Number.parseInt(lower.slice(2), 16)
      : Number.parseInt(lower.slice(1), 10);
    return String.fromCodePoint(codePoint);
  });
}

/** JSON that XML can carry: JSON.stringify already escapes controls and lone surrogates. */
function xmlSafeJson(value: unknown): string {
  const json = JSON.stringify(value);
  // Noncharacters are rare: test first rather than always running the replace.
  if (!/[\ufffe\uffff]/.test(json)) return json;
  return json.replace(/[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * The packet's start up to its byte-order mark, the only non-Latin-1 character of the fixed text.
 * A string holding it is stored by V8 as two-byte and encodes to UTF-8 several times slower
 * than a one-byte string, so the PNG writer encodes this start once and the rest (which for
 * Latin-1 metadata stays one-byte) per image.
 */
export const XMP_PACKET_START = '<?xpacket begin="\ufeff';

// The rest of the packet's fixed text, joined once rather than on every call.
const XMP_BEFORE_CREATE_DATE = [
  '" id="W5M0MpCehiHzreSzNTczkc9d"?>',
  '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
  ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  '  <rdf:Description rdf:about=""',
  '    xmlns:dc="http://purl.org/dc/elements/1.1/"',
  '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
  `    xmlns:atelier="${ATELIER_XMP_NAMESPACE}"`,
  `    xmp:CreatorTool="${SOFTWARE_NAME}"`,
  '    xmp:CreateDate="',
].join('\n');
const XMP_BEFORE_PROMPT = '">\n   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">';
const XMP_BEFORE_JSON = '</rdf:li></rdf:Alt></dc:description>\n   <atelier:metadata>';
const XMP_AFTER_JSON = [
  '</atelier:metadata>',
  '  </rdf:Description>',
  ' </rdf:RDF>',
  '</x:xmpmeta>',
  '<?xpacket end="w"?>',
].join('\n');

/**
 * An XMP packet (UTF-8 text) with Dublin Core / XMP basics and our JSON copy. The JSON copy
 * holds the full prompt; the description, for photo tools, its start when it is long. A PNG
 * passes `json` with the long texts left to its parameters chunk.
 */
export function buildXmpPacket(metadata: ImageMetadata, json: EmbeddedJson = metadata): string {
  return XMP_PACKET_START + xmpPacketAfterStart(metadata, json);
}

/** The packet that buildXmpPacket returns, without its first XMP_PACKET_START characters. */
export function xmpPacketAfterStart(
  metadata: ImageMetadata,
  json: EmbeddedJson = metadata,
): string {
  const embedded = { ...json, software: SOFTWARE_NAME };
  return (
    XMP_BEFORE_CREATE_DATE +
    escapeXml(metadata.createdAt) +
    XMP_BEFORE_PROMPT +
    escapeXml(promptPreview(metadata.prompt)) +
    XMP_BEFORE_JSON +
    escapeXml(xmlSafeJson(embedded)) +
    XMP_AFTER_JSON
  );
}

/**
 * An XMP packet of at most `maxBytes` UTF-8 bytes: when the full one is too big, the prompt,
 * negative prompt and parameters are shortened and `truncated` is set.
 */
export function buildXmpPacketWithin(metadata: ImageMetadata, maxBytes: number): Buffer {
  const full = Buffer.from(buildXmpPacket(metadata), 'utf8');
  if (full.length <= maxBytes) return full;
  const base: ImageMetadata = { ...metadata, truncated: true };
  delete base.parameters;
  const minimal = Buffer.from(buildXmpPacket({ ...base, prompt: '', negativePrompt: null }));
  if (minimal.length > maxBytes) {
    throw new Error(`The image metadata cannot fit in ${maxBytes} bytes even without the prompt.`);
  }
  // Binary search on the prompt length (in UTF-16 units; escaping makes bytes non-linear).
  const negative = metadata.negativePrompt ?? '';
  let low = 0;
  let high = metadata.prompt.length + negative.length;
  let best = minimal;
  while (low <= high) {
    const keep = Math.floor((low + high) / 2);
    const prompt = cutAt(metadata.prompt, keep);
    const negativeKept = cutAt(negative, keep - prompt.length);
    const packet = Buffer.from(
      buildXmpPacket({ ...base, prompt, negativePrompt: negativeKept || null }),
      'utf8',
    );
    if (packet.length <= maxBytes) {
      best = packet;
      low = keep + 1;
    } else {
      high = keep - 1;
    }
  }
  return best;
}
