/**
 * Known-item evaluation, with no labels to write: every note's title and each alias is a query
 * whose answer is that note. A query counts as found at 1 when the first hit is the note, or a
 * note carrying the same name (two notes may share an alias; either answer is right).
 */

export interface KnownItemNote {
  path: string;
  title: string;
  aliases: readonly string[];
}

export interface KnownItemReport {
  titles: { queries: number; first: number };
  aliases: { queries: number; first: number };
  misses: { kind: 'title' | 'alias'; query: string; want: string; got: string | null; rank: number | null }[];
}

export type KnownItemSearch = (query: string) => string[];

export function runKnownItems(notes: readonly KnownItemNote[], search: KnownItemSearch): KnownItemReport {
  const holders = new Map<string, Set<string>>();
  const hold = (name: string, path: string) => {
    const key = name.toLowerCase();
    if (!holders.has(key)) holders.set(key, new Set());
    holders.get(key)!.add(path);
  };
  for (const note of notes) {
    hold(note.title, note.path);
    for (const alias of note.aliases) hold(alias, note.path);
  }
  const report: KnownItemReport = { titles: { queries: 0, first: 0 }, aliases: { queries: 0, first: 0 }, misses: [] };
  const check = (kind: 'title' | 'alias', query: string, want: string) => {
    const ranked = search(query);
    const tally = kind === 'title' ? report.titles : report.aliases;
    tally.queries++;
    const top = ranked[0] ?? null;
    if (top !== null && (top === want || holders.get(query.toLowerCase())?.has(top))) {
      tally.first++;
      return;
    }
    const index = ranked.indexOf(want);
    report.misses.push({ kind, query, want, got: top, rank: index === -1 ? null : index + 1 });
  };
  for (const note of notes) {
    check('title', note.title, note.path);
    for (const alias of note.aliases) check('alias', alias, note.path);
  }
  return report;
}
