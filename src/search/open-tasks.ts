/**
 * A query asking what is still open ("what's still open on Harbor?", "pending items from the
 * design review", "o que falta fazer na mudança"): among the notes matching its other words, the
 * ones holding unfinished tasks (`- [ ]`, `- [/]` in progress) are its answer more often than the
 * notes that only talk about the same subject.
 */
import { foldWords, phrasesIn, phraseTable, type AskedPhrase } from './asked.js';

/**
 * The words that ask for what is still open, per language, `|` parting phrases. Not "open"
 * alone ("open the file", "open source"), nor "open questions" (a meeting's questions are not
 * its tasks).
 */
const OPEN_WORDS: Readonly<Record<string, string>> = {
  en: 'still open | open items | open tasks | open task | open to-dos | open todos | open action items | pending | outstanding | unfinished | incomplete | not done | not done yet | not yet done | left to do | still to do | still left | yet to do | to-do | to-dos | todo | todos | remaining tasks | remaining items | remaining work | unchecked',
  pt: 'pendente | pendentes | em aberto | em andamento | falta fazer | por fazer | a fazer | ainda por fazer | inacabado | inacabada | não feito | não feita | tarefas abertas',
  es: 'pendiente | pendientes | por hacer | sin terminar | sin hacer | inacabado | inacabada | falta por hacer | tareas abiertas',
  fr: 'en attente | à faire | en suspens | inachevé | inachevée | restant à faire | pas fait | pas faite | non fait | tâches ouvertes',
  de: 'offen | offene | offenen | offener | ausstehend | ausstehende | ausstehenden | noch zu tun | unerledigt | unerledigte | unerledigten | zu erledigen | nicht erledigt',
  it: 'in sospeso | da fare | incompiuto | incompiuta | non fatto | non fatta | ancora aperto | ancora aperti | ancora aperte',
  nl: 'openstaand | openstaande | nog te doen | onafgerond | onafgeronde | niet gedaan',
  ru: 'незавершённые | незавершенные | невыполненные | открытые задачи | не сделано | осталось сделать',
};

const OPEN = phraseTable(OPEN_WORDS);

/** The languages in which a word asking for open tasks means something else: Spanish and Portuguese `todo` is "all". */
const FALSE_FRIENDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['todo', ['es', 'pt']],
  ['todos', ['es', 'pt']],
]);

/**
 * The words of a query asking for what is still open (`OPEN_WORDS`), empty when none does. Not
 * read: a word where the query's function words (`languageOf`) are of a language in which it
 * means something else (Spanish `todo`).
 */
export function openAsked(words: readonly string[], languageOf: () => string | null = () => null): AskedPhrase[] {
  const folded = foldWords(words);
  return phrasesIn(words, folded, OPEN, (first, last) => {
    const unlike = FALSE_FRIENDS.get(folded[first]!);
    return !(unlike !== undefined && first === last && unlike.includes(languageOf() ?? ''));
  });
}

/** BM25's k1 and b: a note's tenth open task adds less than its second, and a long note's few tasks are less of it than a short note's. */
const K1 = 1.2;
const B = 0.75;

/**
 * What holding open tasks is worth to a query asking for them, in units of its idf. The asking
 * words ("still open") are not the tasks' words, and in a vault of daily notes and meetings many
 * notes hold a stray task, so the idf is low (0.9 in the sample vault, where 2 notes in 5 hold
 * one). Swept 1–8 over the sample vault's three sets: 1 and 2 left "what is still open on the
 * tenant deletion project?" 6th, 3 brought its task list into the first five, 4–8 moved one
 * more question a place either way. 3: the least that finds the task list.
 */
export const OPEN_WEIGHT = 3;

/**
 * Each note's unfinished tasks (`- [ ]` to do, `- [/]` in progress; not done, not cancelled),
 * and the bonus a query asking for them gives: as if each open task were one occurrence of a
 * word the notes holding them contain, scored by BM25 — its idf, ln(1 + (N − n + 0.5) / (n + 0.5))
 * for n such notes among N, times the count saturated and normalized by the note's length, so a
 * task list outranks a long note with a to-do at its end — times `OPEN_WEIGHT`. Only notes that
 * match the query's other words are ranked, so it orders them and brings in none.
 */
export class OpenTasks {
  /** The notes holding open tasks, and each one's bonus. */
  readonly bonuses: ReadonlyMap<number, number>;

  /**
   * @param counts each note's open tasks
   * @param lengths each note's length (its body's words)
   */
  constructor(counts: ArrayLike<number>, lengths: ArrayLike<number>) {
    let holding = 0;
    let total = 0;
    for (let doc = 0; doc < counts.length; doc++) {
      if (counts[doc]! > 0) holding++;
      total += lengths[doc]!;
    }
    const average = total / counts.length || 1;
    const idf = Math.log(1 + (counts.length - holding + 0.5) / (holding + 0.5));
    const bonuses = new Map<number, number>();
    for (let doc = 0; doc < counts.length; doc++) {
      const count = counts[doc]!;
      if (count === 0) continue;
      const norm = 1 - B + (B * lengths[doc]!) / average;
      bonuses.set(doc, (OPEN_WEIGHT * idf * (K1 + 1) * count) / (K1 * norm + count));
    }
    this.bonuses = bonuses;
  }

  /** Whether any note holds an open task. */
  get any(): boolean {
    return this.bonuses.size > 0;
  }
}
