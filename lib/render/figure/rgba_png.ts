/**
 * A minimal RGBA PNG encoder with uncompressed (stored) deflate blocks, so the bytes never
 * depend on a compressor. The canvas shim ({@link ./canvas.ts}) uses it for Plot's ramp legends.
 *
 * @module
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Encode `width × height` RGBA pixels (row-major, 4 bytes each) as a PNG (8-bit RGBA, no
 * filter, stored deflate blocks).
 *
 * @example
 * ```ts
 * const png = encodeRgbaPng(2, 1, new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255]));
 * new TextDecoder().decode(png.subarray(1, 4)); // "PNG"
 * ```
 */
export function encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width), dv.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", storedZlib(raw)),
    pngChunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}

/** A zlib stream of stored (uncompressed) deflate blocks with its Adler-32 checksum. */
function storedZlib(raw: Uint8Array): Uint8Array {
  const blocks: number[] = [0x78, 0x01];
  for (let i = 0; i < raw.length || i === 0; i += 65535) {
    const chunk = raw.subarray(i, i + 65535);
    const last = i + 65535 >= raw.length ? 1 : 0;
    const n = chunk.length;
    blocks.push(last, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255, ...chunk);
  }
  let a = 1, b = 0;
  for (const v of raw) (a = (a + v) % 65521), (b = (b + a) % 65521);
  blocks.push(b >> 8, b & 255, a >> 8, a & 255);
  return new Uint8Array(blocks);
}

/** One PNG chunk: length, type, data, CRC of type + data. */
function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set([...type].map((c) => c.charCodeAt(0)), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
