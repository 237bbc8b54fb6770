import { constants, crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A minimal PNG encoder for raw RGB. Used for small pictures, where it is several times faster
 * than a sharp pipeline (whose fixed cost per call dominates at, say, 64x64).
 */
export function encodePng(raw: Buffer, width: number, height: number): Buffer {
  const stride = width * 3;
  const rows = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    const from = y * stride;
    // Filter "Sub": each byte minus its left neighbour; gradients compress far better so.
    rows[at] = 1;
    for (let i = 0; i < stride; i++) {
      rows[at + 1 + i] = (raw[from + i]! - (i >= 3 ? raw[from + i - 3]! : 0)) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    // Huffman only: after the Sub filter the bytes of a smooth picture are mostly tiny, so this
    // is nearly as small as level 1 and about 40% cheaper, which counts at thousands per second.
    chunk('IDAT', deflateSync(rows, { level: 1, strategy: constants.Z_HUFFMAN_ONLY })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}
