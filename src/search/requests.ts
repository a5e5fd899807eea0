/**
 * Requests, the other way agents and people ask: "tell me about the Atlas project", "show me my
 * notes about sourdough", "summarize what I know about Tantivy", "can you list my notes on
 * Priya". The verb asks for the answer; it is not what the answer is about. Left in, a rare
 * verb outranks the subject: in the sample vault `tell` (in 9 notes of 163) put a book note
 * above every Atlas note, whose word is in 105.
 *
 * Only the request's leading run is read as framing: request verbs, the function words around
 * them, and nouns for "what the vault holds" (`notes`, `everything`, `info`) right before a
 * function word or a word of relation ("my notes about …", "anything on …", "notes related
 * to …", which ask without a verb). A verb counts only when what follows it
 * is framing too — `list comprehension`, `search operators`, `show hidden files` and
 * `find duplicates` are keyword queries whose first word is content — and a verb after the
 * subject stays ("what does Jon tell Gina").
 */
import { foldToken } from './tokenizer.js';

const REQUEST_VERBS_BY_LANGUAGE: Record<string, string> = {
  en: `tell show give find list summarize summarise explain describe search look get fetch recall remind help
    want need know remember bring pull display locate looking searching trying write wrote written`,
  pt: `mostre mostra mostrar diga diz diga-me fale fala conte conta liste lista resuma resume explique explica
    descreva descreve encontre encontra procure procura busque busca quero preciso sei saber lembre ajude`,
  es: `muestra muéstrame dime di habla háblame cuenta cuéntame lista resume resúmeme explica explícame
    describe encuentra busca quiero necesito sé saber recuerda ayuda ayúdame dame`,
  fr: `montre montrez dis dites parle parlez raconte liste listez résume résumez explique expliquez décris
    décrivez trouve trouvez cherche cherchez veux voudrais sais savoir rappelle aide donne donnez`,
  de: `zeig zeige zeigen sag sage erzähl erzähle nenne liste fasse erkläre erklär beschreibe finde such suche
    gib möchte will brauche weiß wissen hilf`,
  it: `mostra mostrami dimmi parla parlami racconta elenca riassumi spiega descrivi trova cerca voglio vorrei
    so sapere ricorda aiuta dammi`,
  nl: `toon laat vertel zeg noem geef vat leg beschrijf vind zoek wil weet help`,
  ru: `покажи расскажи скажи назови перечисли объясни опиши найди дай хочу нужно знаю помоги напомни`,
};

/** Nouns for what the vault holds, framing only right before a function word ("my notes about …"). */
const VAULT_NOUNS_BY_LANGUAGE: Record<string, string> = {
  en: 'notes note entries entry info information everything anything something all details stuff things',
  pt: 'notas nota informação informações tudo algo',
  es: 'notas nota información todo algo',
  fr: 'notes note informations tout quelque',
  de: 'notizen notiz infos informationen alles etwas',
  it: 'note nota informazioni tutto qualcosa',
  nl: 'notities notitie informatie alles iets',
  ru: 'заметки заметку информацию всё',
};

const setsOf = (lists: Record<string, string>): ReadonlyMap<string, ReadonlySet<string>> => new Map(Object.entries(lists).map(([language, list]) => [language, new Set(list.split(/\s+/).filter(Boolean).map(foldToken))]));

const REQUEST_VERBS = setsOf(REQUEST_VERBS_BY_LANGUAGE);
const VAULT_NOUNS = setsOf(VAULT_NOUNS_BY_LANGUAGE);

/**
 * How many of the query's first words frame a request in `language` (0 when the leading run
 * frames nothing): function words, request verbs followed by framing, and vault nouns followed
 * by a function word or a word of relation ("notes on …", "anything about …", "notes related
 * to …" ask as plainly as "show me …").
 */
export function leadingRequest(language: string, words: readonly string[], isFunctionWord: (folded: string) => boolean): number {
  const verbs = REQUEST_VERBS.get(language);
  const nouns = VAULT_NOUNS.get(language);
  if (verbs === undefined || nouns === undefined) return 0;
  let framed = false;
  let i = 0;
  for (; i < words.length; i++) {
    const word = foldToken(words[i]!);
    const next = i + 1 < words.length ? foldToken(words[i + 1]!) : null;
    if (isFunctionWord(word)) continue;
    if (next === null) break;
    // "how do I pull a chunk out", "how do I get my money back": the asker's own action on a
    // thing, what the question is about ("where did I write about …" and "how do I find my
    // notes on …" still frame: a preposition, or a word for notes, follows the verb).
    if (language === 'en' && i >= 2 && DETERMINERS.has(next) && ASKER.has(foldToken(words[i - 1]!)) && AUXILIARIES.has(foldToken(words[i - 2]!)) && !objectAfter(words, i + 1, isFunctionWord).some((noun) => nouns.has(noun))) break;
    // "list of books", "help of a friend": an English verb takes no `of`; the word is a noun, content.
    if (verbs.has(word) && (isFunctionWord(next) || verbs.has(next) || nouns.has(next)) && !(language === 'en' && next === 'of')) framed = true;
    else if (nouns.has(word) && (isFunctionWord(next) || RELATION.has(next))) framed = true;
    else if (!RELATION.has(word) || i === 0) break;
  }
  return framed ? i : 0;
}

/**
 * English asks about the asker's own action with an auxiliary, the subject, the verb and its
 * object: "how do I find a …", "can we get the …". (The other request languages conjugate the
 * verb itself, "como restauro", or put it last, "wie kann ich … finden".)
 */
const AUXILIARIES = new Set(['do', 'does', 'did', 'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must']);
const ASKER = new Set(['i', 'we']);
/** Words that open a verb's object: articles, possessives, demonstratives (not `that`, as often "know that …"). */
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'this', 'these', 'those', 'some', 'any']);

/** A verb's object: the words (folded) from `from` on, past function words, up to the next function word, at most three ("my old meeting notes"). */
function objectAfter(words: readonly string[], from: number, isFunctionWord: (folded: string) => boolean): string[] {
  const object: string[] = [];
  for (let at = from; at < words.length && object.length < 3; at++) {
    const word = foldToken(words[at]!);
    if (!isFunctionWord(word)) object.push(word);
    else if (object.length > 0) break;
  }
  return object;
}

/** Words of relation after a vault noun: "notes related to …", "anything regarding …". */
const RELATION = new Set(['related', 'relating', 'regarding', 'concerning', 'relacionado', 'relacionadas', 'relacionados', 'sobre', 'über', 'concernant']);

/**
 * The request that opens the query — a request verb or a vault noun framing what follows
 * (English first) — as its language and how many words frame it (`leadingRequest`), or null.
 */
export function openingRequest(words: readonly string[], isFunctionWord: (language: string, folded: string) => boolean): { language: string; framing: number } | null {
  if (words.length < 2) return null;
  const first = foldToken(words[0]!);
  for (const [language, verbs] of REQUEST_VERBS) {
    if (!verbs.has(first) && !VAULT_NOUNS.get(language)!.has(first)) continue;
    const framing = leadingRequest(language, words, (word) => isFunctionWord(language, word));
    if (framing > 0) return { language, framing };
  }
  return null;
}

/** Whether a word is a request verb or a noun for what the vault holds, in some language ("list", "notes", "mostre"). */
export function isRequestWord(word: string): boolean {
  const folded = foldToken(word);
  for (const verbs of REQUEST_VERBS.values()) if (verbs.has(folded)) return true;
  for (const nouns of VAULT_NOUNS.values()) if (nouns.has(folded)) return true;
  return false;
}
