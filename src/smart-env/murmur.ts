/**
 * The content hash Smart Connections stores in `last_read.hash` and in every embedding pointer's
 * `read_hash`: MurmurHash3 x86_32, seed 0, printed unsigned in base 36. Ported from the plugin's
 * `murmur_hash_32_alphanumeric` (jsbrains `smart-utils/create_hash.js`) so that staleness can be
 * checked exactly.
 *
 * The plugin hashes UTF-16 code units truncated to their low byte (`charCodeAt(i) & 0xff`), not
 * UTF-8 bytes, and uses the UTF-16 length. That is lossy on purpose-free grounds, but it is what
 * is on disk, so the port copies it. Hash the text exactly as read (CRLF kept).
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** MurmurHash3 x86_32 over the low bytes of `text`'s UTF-16 code units; signed 32-bit result. */
export function murmurHash32(text: string, seed = 0): number {
  const length = text.length;
  const tail = length & 3;
  const body = length - tail;
  let h1 = seed | 0;
  let i = 0;
  while (i < body) {
    let k1 = (text.charCodeAt(i) & 0xff) | ((text.charCodeAt(i + 1) & 0xff) << 8) | ((text.charCodeAt(i + 2) & 0xff) << 16) | ((text.charCodeAt(i + 3) & 0xff) << 24);
    i += 4;
    k1 = Math.imul(k1, C1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, C2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  let k1 = 0;
  switch (tail) {
    case 3:
      k1 ^= (text.charCodeAt(i + 2) & 0xff) << 16;
    // falls through
    case 2:
      k1 ^= (text.charCodeAt(i + 1) & 0xff) << 8;
    // falls through
    case 1:
      k1 ^= text.charCodeAt(i) & 0xff;
      k1 = Math.imul(k1, C1);
      k1 = (k1 << 15) | (k1 >>> 17);
      k1 = Math.imul(k1, C2);
      h1 ^= k1;
  }
  h1 ^= length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}

/** The plugin's hash string: `murmurHash32(text) >>> 0` in base 36 (`"0"` for the empty string). */
export function murmurHash32Alphanumeric(text: string): string {
  return (murmurHash32(text) >>> 0).toString(36);
}
