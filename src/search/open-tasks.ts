/**
 * A query asking what is still open ("what's still open on Harbor?", "pending items from the
 * design review", "o que falta fazer na mudança"): among the notes matching its other words, the
 * ones holding unfinished tasks (`- [ ]`, `- [/]` in progress) are its answer more often than the
 * notes that only talk about the same subject.
 */
import { foldWords, phrasesIn, phraseTable, type AskedPhrase } from './asked.js';
import { BM25_DEFAULTS, inverseDocumentFrequency, termScore } from './bm25l.js';

/** Words for what is unfinished (English), each asking only before a word for tasks, after "still", or said of something (`PREDICATE`). */
const UNFINISHED = ['open', 'pending', 'outstanding', 'unfinished', 'incomplete', 'remaining', 'unchecked'];
const TASK_NOUNS = ['items', 'item', 'tasks', 'task', 'to-dos', 'todos', 'action items', 'actions', 'work', 'points', 'issues', 'things'];
/**
 * Words before an unfinished word alone that make it said of something ("anything pending?",
 * "what's outstanding on Harbor", "is the export incomplete"). Not for `open` ("the shop is
 * open") nor `unchecked` ("an unchecked exception").
 */
const PREDICATE = new Set(['anything', 'something', 'is', 'are', 'still', "what's", "it's", "that's", "there's", "anything's", "what're"]);
const SAID_ALONE = new Set(['pending', 'outstanding', 'unfinished', 'incomplete', 'remaining']);

/**
 * The words that ask for what is still open, per language, `|` parting phrases. An adjective for
 * unfinished asks only before a word for tasks ("pending items", "outstanding action items") or
 * after "still" ("still pending"): alone it has other senses ("outstanding balance", "pending
 * promise", "incomplete data", "open source"), and "open questions" are a meeting's questions,
 * not its tasks. So German `offen` alone ("offene Fragen", "Tag der offenen Tür"), Portuguese
 * `a fazer` ("estou a fazer o jantar"), Spanish `por hacer` ("por hacer ejercicio"), French
 * `à faire` ("facile à faire") and Italian `da fare` ("cose da fare a Roma") are read only in
 * the phrases below.
 */
const OPEN_WORDS: Readonly<Record<string, string>> = {
  en: [
    ...UNFINISHED.flatMap((word) => [word, `still ${word}`, ...TASK_NOUNS.map((noun) => `${word} ${noun}`)]),
    'left to do | still to do | still left | yet to do | not done yet | not yet done | to-do | to-dos | todo | todos | to do list',
    "haven't done yet | have not done yet | haven't finished | not finished yet | still need to do | still have to do | remains to be done | remain to be done | left undone",
  ].join(' | '),
  pt: 'pendente | pendentes | pendência | pendências | em aberto | falta fazer | ainda por fazer | tarefas por fazer | inacabado | inacabada | tarefas abertas',
  es: 'pendiente | pendientes | falta por hacer | queda por hacer | tareas por hacer | inacabado | inacabada | tareas abiertas',
  fr: 'reste à faire | encore à faire | tâches à faire | en suspens | inachevé | inachevée | tâches ouvertes',
  de: 'noch offen | offene punkte | offenen punkte | offene aufgaben | offenen aufgaben | offene todos | ausstehend | ausstehende | ausstehenden | noch zu tun | unerledigt | unerledigte | unerledigten | noch zu erledigen',
  it: 'in sospeso | ancora da fare | rimasto da fare | incompiuto | incompiuta | ancora aperto | ancora aperti | ancora aperta | ancora aperte',
  nl: 'openstaand | openstaande | nog te doen | onafgerond | onafgeronde',
  ru: 'незавершённые | незавершенные | невыполненные | открытые задачи | не сделано | осталось сделать',
};

const OPEN = phraseTable(OPEN_WORDS);

/**
 * Words for the tasks themselves, per language: beside the words asking what is open they only
 * name what is asked for ("which tasks are still open?", "tarefas pendentes", "what items are
 * still pending"), so a query of them and the asking words asks only that (`isTaskNoun`).
 */
const TASK_NOUNS_BY_LANGUAGE: Readonly<Record<string, string>> = {
  en: 'task tasks item items todo todos to-do to-dos action actions point points issue issues thing things',
  pt: 'tarefa tarefas item itens ponto pontos coisa coisas afazeres assunto assuntos',
  es: 'tarea tareas elemento elementos punto puntos cosa cosas asunto asuntos tema temas',
  fr: 'tâche tâches élément éléments point points chose choses',
  de: 'aufgabe aufgaben punkt punkte todo todos ding dinge',
  it: 'attività compito compiti cosa cose punto punti',
  nl: 'taak taken punt punten ding dingen',
  ru: 'задача задачи задач дело дела пункт пункты',
};

const TASK_NOUNS_FOLDED: ReadonlySet<string> = new Set(Object.values(TASK_NOUNS_BY_LANGUAGE).flatMap((list) => list.split(' ').map((word) => foldWords([word])[0]!)));

/** Whether a word names tasks in some language (`TASK_NOUNS_BY_LANGUAGE`): beside the words asking what is open, it asks nothing more. */
export function isTaskNoun(word: string): boolean {
  return TASK_NOUNS_FOLDED.has(foldWords([word])[0]!);
}

/** The languages in which a word asking for open tasks means something else: Spanish and Portuguese `todo` is "all". */
const FALSE_FRIENDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['todo', ['es', 'pt']],
  ['todos', ['es', 'pt']],
]);

/**
 * The words of a query asking for what is still open (`OPEN_WORDS`), empty when none does. Not
 * read: an English word for unfinished alone but where it is said of something (`PREDICATE`),
 * and a word where the query's function words (`languageOf`) are of a language in which it
 * means something else (Spanish `todo`).
 */
export function openAsked(words: readonly string[], languageOf: () => string | null = () => null): AskedPhrase[] {
  const folded = foldWords(words);
  const asked = phrasesIn(words, folded, OPEN, (first, last) => {
    if (first !== last) return true;
    const word = folded[first]!;
    if (UNFINISHED.includes(word)) return SAID_ALONE.has(word) && PREDICATE.has(folded[first - 1] ?? '');
    return !(FALSE_FRIENDS.get(word)?.includes(languageOf() ?? '') ?? false);
  });
  // "anything pending?": the pronoun it is said of asks too.
  return asked.map((phrase) =>
    phrase.first > 0 && PRONOUNS.has(folded[phrase.first - 1]!) && UNFINISHED.includes(folded[phrase.first]!) ? { ...phrase, first: phrase.first - 1, text: words.slice(phrase.first - 1, phrase.last + 1).join(' ') } : phrase,
  );
}

/** The pronouns of `PREDICATE`, read with the word for unfinished they come before. */
const PRONOUNS = new Set(['anything', 'something']);

/**
 * What holding open tasks is worth to a query asking for them, in units of its idf among the
 * best matches (`OpenTasks.among`). The asking words ("still open") are not the tasks' words, so
 * the bonus stands for a word and its passage both. Swept 0–6 over the sample vault's three
 * sets: at 2 or less "what is still open on the tenant deletion project?" leaves its task list
 * 6th, 3 brings it into the first five (and the Portuguese "o que ainda falta fazer no Harbor"
 * too), 4 moves one more question up a place, 6 down again. 3: the least that finds them.
 */
export const OPEN_WEIGHT = 3;

/**
 * Each note's unfinished tasks (`- [ ]` to do, `- [/]` in progress; not done, not cancelled, not
 * in code), and the bonus a query asking for them gives among its best matches: as if each open
 * task were one occurrence of a word those notes contain, scored by BM25 — the idf of holding
 * any among the m best matches, ln(1 + (m − k + 0.5) / (k + 0.5)) for k holding some, times the
 * count saturated and normalized by the note's length (a task list outranks a long note with a
 * to-do at its end) — times `OPEN_WEIGHT`. Counted among the best matches, not the vault, as
 * the newest are: it is bounded (at most ln(2m + 2) per unit), it reorders notes that match the
 * query well and lifts none from deep down, and in a vault of daily notes each holding a stray
 * task it tells the best matches apart by how much of them is tasks.
 */
export class OpenTasks {
  private readonly holding: number;
  private readonly averageLength: number;

  /**
   * @param counts each note's open tasks
   * @param lengths each note's length (its body's words)
   */
  constructor(
    private readonly counts: ArrayLike<number>,
    private readonly lengths: ArrayLike<number>,
  ) {
    let holding = 0;
    let total = 0;
    for (let doc = 0; doc < counts.length; doc++) {
      if (counts[doc]! > 0) holding++;
      total += lengths[doc]!;
    }
    this.holding = holding;
    this.averageLength = total / lengths.length || 1;
  }

  /** Whether any note holds an open task. */
  get any(): boolean {
    return this.holding > 0;
  }

  /** Doc → its bonus among `docs` (the best matches); notes without open tasks get none. Scored by `termScore`, BM25's k1 and b. */
  among(docs: readonly number[]): Map<number, number> {
    const held = docs.filter((doc) => this.counts[doc]! > 0);
    const idf = inverseDocumentFrequency(docs.length, held.length, 'lucene');
    const { b } = BM25_DEFAULTS;
    const bonuses = new Map<number, number>();
    for (const doc of held) {
      const norm = 1 - b + (b * this.lengths[doc]!) / this.averageLength;
      bonuses.set(doc, OPEN_WEIGHT * termScore(this.counts[doc]!, norm, idf, BM25_DEFAULTS));
    }
    return bonuses;
  }
}
