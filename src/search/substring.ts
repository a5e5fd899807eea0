/**
 * The substring lane: for queries the keyword lane cannot answer (single characters,
 * punctuation such as `%` or `→`). It joins only when BM25L found nothing, and ranks by where
 * the match occurs and how long the note is — never alphabetically, so order means something.
 */

export interface SubstringCandidate {
  doc: number;
  title: string;
  text: string;
}

export interface SubstringHit {
  doc: number;
  score: number;
  /** 1-based line of the first match in the text, or 0 for a title match. */
  line: number;
}

export function rankSubstring(query: string, candidates: Iterable<SubstringCandidate>, limit: number): SubstringHit[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const hits: SubstringHit[] = [];
  for (const candidate of candidates) {
    if (candidate.title.toLowerCase().includes(needle)) {
      hits.push({ doc: candidate.doc, score: 1 + 1 / (1 + Math.log1p(candidate.text.length)), line: 0 });
      continue;
    }
    const at = candidate.text.toLowerCase().indexOf(needle);
    if (at === -1) continue;
    // Earlier matches in shorter notes rank higher; both factors are in (0, 1].
    const position = 1 / (1 + at / 500);
    const brevity = 1 / (1 + Math.log1p(candidate.text.length / 1000));
    hits.push({ doc: candidate.doc, score: position * brevity, line: candidate.text.slice(0, at).split('\n').length });
  }
  hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return hits.slice(0, limit);
}
