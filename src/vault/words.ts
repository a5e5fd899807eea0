/**
 * Word characters as every scanner in Engram sees them — Unicode letters, digits and marks —
 * and the word count a note reports. ASCII is a table look-up; other code points are classified
 * once by a Unicode regular expression and remembered.
 */

/** 1 for ASCII letters and digits. */
export const ASCII_WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD_CHAR[c] = /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? 1 : 0;

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const wordChars = new Map<number, boolean>();
const cjkChars = new Map<number, boolean>();

function remembered(cache: Map<number, boolean>, pattern: RegExp, codePoint: number): boolean {
  let known = cache.get(codePoint);
  if (known === undefined) {
    known = pattern.test(String.fromCodePoint(codePoint));
    if (cache.size < 100_000) cache.set(codePoint, known);
  }
  return known;
}

/** A letter, digit or mark (`\p{L}\p{N}\p{M}`). */
export function isWordChar(codePoint: number): boolean {
  return codePoint < 128 ? ASCII_WORD_CHAR[codePoint] === 1 : remembered(wordChars, WORD_CHAR, codePoint);
}

function isJoin(code: number): boolean {
  return code === 0x27 || code === 0x2019 || code === 0x5f || code === 0x2d || code === 0x2e;
}

/**
 * Words in a line, counted as the regular expression the index used to run — each Han or kana
 * character alone, else a run of word characters with inner `' ’ _ - .` joins — by hand: the
 * expression was a tenth of indexing.
 */
export function countWords(line: string): number {
  let count = 0;
  const length = line.length;
  let i = 0;
  while (i < length) {
    const first = line.codePointAt(i)!;
    const width = first > 0xffff ? 2 : 1;
    if (first >= 128 && remembered(cjkChars, CJK_CHAR, first)) {
      count++;
      i += width;
      continue;
    }
    i += width;
    if (!isWordChar(first)) continue;
    count++;
    for (;;) {
      while (i < length) {
        const next = line.codePointAt(i)!;
        if (!isWordChar(next)) break;
        i += next > 0xffff ? 2 : 1;
      }
      if (i + 1 < length && isJoin(line.charCodeAt(i)) && isWordChar(line.codePointAt(i + 1)!)) i++;
      else break;
    }
  }
  return count;
}
