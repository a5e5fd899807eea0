/**
 * A cache from words to whatever they expand to, looked up by a hash of the word's characters
 * where it stands in the text: a word seen before costs a hash and a compare, and no string is
 * made for it. Open addressing over an Int32Array of entry indexes; grows at half full. Indexing
 * and evidence both tokenize millions of words that repeat, and slicing plus Map lookups were
 * most of that cost.
 */

/** Distinct words remembered; past this, new words are expanded each time (still correct). */
const MAX_WORDS = 1_000_000;

interface Entry<T> {
  word: string;
  hash: number;
  value: T;
}

export class WordTable<T> {
  private table = new Int32Array(1 << 16).fill(-1);
  private readonly entries: Entry<T>[] = [];

  /** The value for `text[start, end)`, computed by `make` the first time the word is seen. */
  lookup(text: string, start: number, end: number, make: (word: string) => T): T {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const length = end - start;
    const mask = this.table.length - 1;
    for (let probe = hash & mask; ; probe = (probe + 1) & mask) {
      const at = this.table[probe]!;
      if (at === -1) {
        const word = text.slice(start, end);
        const entry = { word, hash, value: make(word) };
        if (this.entries.length < MAX_WORDS) {
          this.table[probe] = this.entries.length;
          this.entries.push(entry);
          if (this.entries.length * 2 > this.table.length) this.rehash();
        }
        return entry.value;
      }
      const entry = this.entries[at]!;
      if (entry.hash === hash && entry.word.length === length && text.startsWith(entry.word, start)) return entry.value;
    }
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    this.entries.forEach((entry, index) => {
      let probe = entry.hash & mask;
      while (table[probe] !== -1) probe = (probe + 1) & mask;
      table[probe] = index;
    });
    this.table = table;
  }
}
