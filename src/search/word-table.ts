/**
 * A cache from words to whatever they expand to, looked up by a hash of the word's characters
 * where it stands in the text: a word seen before costs a hash and a compare, and no string is
 * made for it. Open addressing over an Int32Array of entry indexes; grows at half full. Indexing
 * and evidence both tokenize millions of words that repeat, and slicing plus Map lookups were
 * most of that cost.
 */

/** Distinct words remembered; past this, new words are expanded each time (still correct). */
const MAX_WORDS = 1_000_000;

/** FNV-1a over UTF-16 code units: the word hash, computed by the scanner as it reads a word. */
/** Signed, as `Math.imul` results and the table's `Int32Array` of hashes are (an empty word hashes to it). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

export function hashSpan(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

export class WordTable<T> {
  /**
   * Open addressing, two slots a probe: the word's hash, then its entry (-1: empty). The hash
   * beside the entry settles most probes on one cache line; kept apart, it was a second miss
   * on every word looked up.
   */
  private table = new Int32Array(1 << 16).fill(-1);
  /**
   * Per entry, in insertion order: the hash (checked first), where its characters start in
   * `chars` (the entry's end is the next entry's start), and its value. The words' characters
   * live packed in one array: comparing against a string object per entry was the most
   * expensive line of indexing (a cache miss on the string before the first character).
   */
  private hashes = new Int32Array(1 << 15);
  private starts = new Int32Array((1 << 15) + 1);
  private chars = new Uint16Array(1 << 18);
  private readonly values: T[] = [];

  /** Whether the table remembers no more words (their values are made at each lookup). */
  get full(): boolean {
    return this.values.length >= MAX_WORDS;
  }

  /**
   * The value for `text[start, end)`, computed by `make` the first time the word is seen.
   * `hash` is `hashSpan` of the word, when the caller already has it (`scanWordSpans` does).
   */
  lookup(text: string, start: number, end: number, make: (word: string) => T, hash = hashSpan(text, start, end)): T {
    const length = end - start;
    const { table } = this;
    const mask = (table.length >> 1) - 1;
    for (let probe = hash & mask; ; probe = (probe + 1) & mask) {
      const at = table[2 * probe + 1]!;
      if (at === -1) return this.insert(probe, hash, text, start, end, make);
      if (table[2 * probe] !== hash) continue;
      const from = this.starts[at]!;
      if (this.starts[at + 1]! - from !== length) continue;
      const { chars } = this;
      let i = 0;
      while (i < length && chars[from + i] === text.charCodeAt(start + i)) i++;
      if (i === length) return this.values[at]!;
    }
  }

  private insert(probe: number, hash: number, text: string, start: number, end: number, make: (word: string) => T): T {
    const value = make(text.slice(start, end));
    const at = this.values.length;
    if (at >= MAX_WORDS) return value;
    if (at + 1 === this.hashes.length) {
      this.hashes = grown(this.hashes, this.hashes.length * 2);
      this.starts = grown(this.starts, this.starts.length * 2);
    }
    const from = this.starts[at]!;
    if (from + end - start > this.chars.length) this.chars = grown(this.chars, Math.max(this.chars.length * 2, from + end - start));
    for (let i = start; i < end; i++) this.chars[from + i - start] = text.charCodeAt(i);
    this.starts[at + 1] = from + end - start;
    this.table[2 * probe] = hash;
    this.table[2 * probe + 1] = at;
    this.hashes[at] = hash;
    this.values.push(value);
    if ((at + 1) * 4 > this.table.length) this.rehash();
    return value;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = (table.length >> 1) - 1;
    for (let at = 0; at < this.values.length; at++) {
      const hash = this.hashes[at]!;
      let probe = hash & mask;
      while (table[2 * probe + 1] !== -1) probe = (probe + 1) & mask;
      table[2 * probe] = hash;
      table[2 * probe + 1] = at;
    }
    this.table = table;
  }
}

function grown<A extends Int32Array | Uint16Array>(array: A, size: number): A {
  const bigger = new (array.constructor as new (size: number) => A)(size);
  bigger.set(array);
  return bigger;
}
