/**
 * Query understanding, before ranking: which of the query's words carry its content. Agents ask
 * in sentences ("how do I embed a file"), and question and function words — interrogatives,
 * auxiliaries, pronouns — then outscore the words that say what is wanted: on the Obsidian help
 * vault `how`, `do` and `i` put three Sync notes above `Embed files`. They are dropped at query
 * time only (the index keeps them, so a query made of nothing else still finds its notes).
 *
 * The lists are the closed classes of each language — question words, auxiliary and modal
 * verbs, personal and possessive pronouns — not general stop lists: a stop list also holds
 * words such as "first", "new" or "value" that are content in a note title. Negations
 * (`won't`, `can't`) and verbs of asking (`tell`) stay: "what does Jon tell Gina he won't do"
 * is about exactly those words (dropping them cost LoCoMo dev 0.00x MRR).
 */
import type { QuotedSpan } from './phrases.js';
import { foldToken, scanWordSpans, type Tokenizer } from './tokenizer.js';
import { stopWordsOf, type Language } from './language.js';
import { leadingRequest, openingRequest } from './requests.js';

const FUNCTION_WORDS_BY_LANGUAGE: Record<string, string> = {
  en: `how what what's whats which who whom whose when where why whether
    do does did doing done can could should shall would will may might must
    is are was were be been being am has have had having
    i i'm i've me my mine myself we us our ours you your yours he him his she her hers it its they them their
    a an the this that these those there here some any
    please about of in on to for with from by at as into
    it's that's there's where's who's how's when's i'd i'll you're you've we're we've they're`,
  pt: `como que quê qual quais quem quando onde porque porquê por quanto quanta quantos quantas
    é são foi eram ser estar está estão tem têm ter há faço fazer pode posso podemos devo deve devemos
    eu me meu minha meus minhas nós nos nosso nossa você vocês seu sua ele ela eles elas
    o a os as um uma uns umas de do da dos das em no na nos nas para pra com sobre isso isto esse essa este esta`,
  es: `cómo como qué que cuál cuáles quién quiénes cuándo dónde donde por porqué cuánto cuánta cuántos cuántas
    es son fue era ser estar está están tiene tienen tener hay hago hacer puede puedo podemos debo debe
    yo me mi mis nosotros nuestro nuestra tú tu usted su él ella ellos ellas
    el la los las un una unos unas a al de del en para con sobre eso esto ese esa este esta`,
  fr: `comment que quoi quel quelle quels quelles qui quand où pourquoi combien est-ce
    est sont était être avoir ai as a avons ont peut peux pouvons dois doit faire fais
    je j' me moi mon ma mes nous notre nos vous votre vos il elle ils elles le la les un une des de du en dans pour avec sur ce cette`,
  de: `wie was welche welcher welches wer wen wem wessen wann wo warum weshalb wieso ob
    ist sind war waren sein bin bist hat haben habe kann kannst können soll sollte muss müssen mache machen
    ich mich mir mein meine wir uns unser unsere du dich dein deine sie er es ihr ihre
    der die das den dem des ein eine einen einem einer im in zu für mit über von`,
  it: `come cosa che quale quali chi quando dove perché quanto quanta quanti quante
    è sono era essere avere ho ha hanno posso può possiamo devo deve fare faccio
    io mi mio mia miei mie noi ci nostro nostra tu tuo tua lui lei loro
    il lo la i gli le un una uno di del della in nel nella per con su questo questa`,
  nl: `hoe wat welke welk wie wanneer waar waarom
    is zijn was waren ben heb hebt heeft hebben kan kun kunnen moet moeten zal zou doe doen
    ik mij me mijn wij we ons onze jij je jouw u uw hij zij ze het
    de een van in op voor met over dit dat deze die`,
  ru: `как что какой какая какие какое кто когда где почему зачем сколько ли
    есть был была были быть могу может можно нужно надо делать сделать
    я меня мне мой моя мои мы нас наш наша ты твой вы ваш он она они оно
    в на с по для о об это этот эта эти`,
};

/**
 * Adverbs that place a question in the asker's time ("what did Melanie paint recently?", "what
 * am I currently reading"): the note that answers says when in its own words ("I just painted",
 * "last week"), or is dated, so the adverb only matched notes that use it. Left out of questions
 * like function words (LoCoMo dev s@5 0.947 → 0.949, MRR +0.001; no other set moved), but they
 * do not make a query a question: "recently deleted files" keeps every word.
 */
const ASKERS_TIME: Record<string, string> = {
  en: 'recently lately currently nowadays',
  pt: 'recentemente ultimamente atualmente',
  es: 'recientemente últimamente actualmente',
  fr: 'récemment dernièrement actuellement',
  de: 'kürzlich neulich letztens derzeit',
  it: 'recentemente ultimamente attualmente',
  nl: 'onlangs laatst tegenwoordig',
  ru: 'недавно',
};

/**
 * Hedges, the asker's guess at an answer ("would Caroline likely have Dr. Seuss books?", "what
 * fields would she probably pursue?"): the note that answers states what is, without the hedge.
 * Left out of questions like the asker's-time adverbs (LoCoMo dev open-domain s@5 0.727 → 0.750,
 * MRR +0.004; no other set moved); a statement keeps them ("likely causes of sync conflicts").
 */
const HEDGES: Record<string, string> = {
  en: 'likely probably possibly perhaps maybe',
  pt: 'provavelmente possivelmente talvez',
  es: 'probablemente posiblemente quizás quizá',
  fr: 'probablement possiblement',
  de: 'wahrscheinlich vielleicht möglicherweise',
  it: 'probabilmente forse possibilmente',
  nl: 'waarschijnlijk misschien mogelijk',
  ru: 'вероятно возможно наверное',
};

/**
 * Quantifiers, closed-class words that say how many of the question's subjects, not what they
 * are ("how do I create a note for each day", "what do Jon and Gina both like"): left out of
 * questions (Obsidian help vault MRR 0.916 → 0.929, LoCoMo s@5 +0.001; no set lower); like the
 * asker's-time adverbs they do not make a query a question ("each day a note" keeps them).
 */
const QUANTIFIERS: Record<string, string> = {
  en: 'both each every either neither',
};

/**
 * Words that are function words only inside a question phrase: `how many`, `how much`, `how
 * often`, `how far`, `what happens` (the Obsidian help vault's notes say "this happens when…"
 * in troubleshooting sections; `happen` had outweighed every other word of a question). Alone they can be content (`many-worlds`, `much ado`), so they are dropped
 * only right after the question word. Measured and left out: `how long` (conversation logs answer
 * it with the word itself, "for a long time") and `what kind of` / `which type of` (the asking
 * turn of a conversation repeats the phrase): both cost LoCoMo MRR. Languages not listed say
 * these with one word (`quantos`, `combien`), already in their lists.
 */
const QUESTION_PHRASES: Record<string, { after: readonly string[]; words: readonly string[] }[]> = {
  en: [
    { after: ['how'], words: ['many', 'much', 'often', 'far'] },
    { after: ['what'], words: ['happens', 'happened', 'happen'] },
  ],
};

/**
 * Words that say where a question's answer is to come from, not what it is: "what do sunflowers
 * represent `according to` Caroline?", "what might Joanna have, `based on` her allergies?". The
 * source stays (Caroline, allergies); `according` and `based` are dropped only before their
 * preposition with a source after it (alone, `based` can be content: "plant based recipes";
 * "who is the character based on?" asks about the phrase), in questions and requests.
 */
const SOURCE_PHRASES: Record<string, { words: readonly string[]; before: readonly string[] }[]> = {
  en: [
    { words: ['according'], before: ['to'] },
    { words: ['based'], before: ['on'] },
  ],
};

/** Whether `words[index]` is part of a question phrase of `language` (see `QUESTION_PHRASES`, `SOURCE_PHRASES`). */
function inQuestionPhrase(language: string, words: readonly string[], index: number): boolean {
  const previous = index > 0 ? foldToken(words[index - 1]!) : '';
  const word = foldToken(words[index]!);
  if ((QUESTION_PHRASES[language] ?? []).some((phrase) => phrase.after.includes(previous) && phrase.words.includes(word))) return true;
  // Only with a source after the preposition: in "who is the character based on?" the phrase is what is asked.
  if (index + 2 >= words.length) return false;
  const next = foldToken(words[index + 1]!);
  return (SOURCE_PHRASES[language] ?? []).some((phrase) => phrase.words.includes(word) && phrase.before.includes(next));
}

/**
 * Languages that capitalize a function word mid-sentence as a matter of grammar (German's
 * polite `Sie`, `Ihr`, `Ihnen`), so a capital there does not mark a name.
 */
const CAPITALIZED_FUNCTION_WORDS = new Set(['de']);

/** Words that are capitalized wherever they stand (English `I` and its contractions). */
const ALWAYS_CAPITAL = new Set(['i', "i'm", "i've", "i'd", "i'll"].flatMap(bothApostrophes));

/** A word with the straight apostrophe, and as typographic text writes it (`don’t`). */
function bothApostrophes(word: string): string[] {
  return [word, word.replace(/'/g, '\u2019')];
}

/**
 * Whether `words[index]`, a function word by spelling, is written as a name: capitalized after
 * the first word ("on 1 May, 2022", "what did Will say") in a query that is not written in title
 * case. A month or a person is content; the modal `may` and the verb `will` are not.
 */
function writtenAsName(language: string, words: readonly string[], index: number, titleCase: boolean): boolean {
  if (index === 0 || titleCase || CAPITALIZED_FUNCTION_WORDS.has(language)) return false;
  const word = words[index]!;
  return startsUpper(word) && !ALWAYS_CAPITAL.has(foldToken(word));
}

/** Title case ("How Do I Embed A File") capitalizes most words: then a capital says nothing. */
function isTitleCase(words: readonly string[]): boolean {
  let capitalized = 0;
  let cased = 0;
  for (const word of words) {
    if (word.toLowerCase() === word.toUpperCase()) continue;
    cased++;
    if (startsUpper(word)) capitalized++;
  }
  return capitalized * 2 > cased;
}

function startsUpper(word: string): boolean {
  const first = word.charAt(0);
  return first !== first.toLowerCase() && first === first.toUpperCase();
}

/** Language → its folded function words. English first: it wins ties. */
/** Each list's words, folded, with a typographic apostrophe (`don’t`) as well as the straight one. */
const FUNCTION_WORDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries(FUNCTION_WORDS_BY_LANGUAGE).map(([language, list]) => [language, new Set(list.split(/\s+/).filter(Boolean).flatMap(bothApostrophes).map(foldToken))]));

/** Whether some language's list holds the word as a question or function word. */
export function isFunctionWord(word: string): boolean {
  const folded = foldToken(word);
  for (const list of FUNCTION_WORDS.values()) if (list.has(folded)) return true;
  return false;
}

/**
 * The language whose function words the query uses most (English on a tie), or null when it
 * uses none. Only that language's list applies: the lists overlap other languages' content
 * words (Spanish `son` and `era`, Italian `dove`, Dutch `van`), so mixing them would drop
 * English content.
 */
export function functionWordLanguage(words: readonly string[], home: ReadonlySet<string> | null = null): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [language, list] of FUNCTION_WORDS) {
    if (!readsIn(language, list, words, home)) continue;
    let count = 0;
    for (const word of words) if (list.has(foldToken(word))) count++;
    if (count > bestCount) [best, bestCount] = [language, count];
  }
  return best;
}

export interface AnalyzedQuery {
  /** Every token of the query, as the tokenizer makes them. */
  all: string[];
  /** The tokens that carry the query's content: what is ranked. */
  content: string[];
  /** Tokens of question and function words, left out of the ranking (empty when nothing else was there). */
  ignored: string[];
  /** The language whose function words were recognised, or null. */
  language: string | null;
  /** Token → the query word it came from (its first): parts of one word (`2026-05-01`) are not "near" each other. */
  wordOf: Map<string, number>;
  /** The query's words as written, indexed as in `wordOf`. */
  words: string[];
  /** The indexes in `words` of the words inside the query's quotes: words to search, never read as asking for something. */
  quoted: ReadonlySet<number>;
  /** The tokens of those words: a reading that leaves a word out keeps a token that is also quoted. */
  quotedTerms: ReadonlySet<string>;
  /**
   * Each token of `content` → every word it came from, in order (`week` of "last week harbor week
   * summary" ← 1 and 3): a reading that takes one of them ("last week") leaves the token to the other.
   */
  termWords: ReadonlyMap<string, readonly number[]>;
}

/**
 * A question, as agents ask them: it ends with `?`, or it opens with a function word ("how do
 * I…", "what is…", "can we…", "quais são…"). Only questions lose their function words: in a
 * statement or a claim ("vitamin D does not prevent falls"), words such as `does` or `can`
 * belong to the claim (dropping them everywhere cost SciFact 0.0025 nDCG@10).
 */
function isQuestion(query: string, words: readonly string[], home: ReadonlySet<string> | null): boolean {
  if (/[?？¿]\s*$/u.test(query) || /^\s*¿/u.test(query)) return true;
  const first = words[0];
  if (first === undefined) return false;
  const folded = foldToken(first);
  for (const [language, list] of FUNCTION_WORDS) if (list.has(folded) && readsIn(language, list, words, home)) return true;
  return false;
}

/**
 * The languages a query of this vault is read in without more ado: its notes' languages and
 * English, which agents ask in whatever the vault's language. Another language's function words
 * make a question only when the sentence holds two of them ("quais são as pendências?" over an
 * English vault): one alone is more often an English word — German `war` and `die` opened "war
 * crimes" and "die casting" as German questions, and the first word was dropped. Null: every
 * language is home (the vault is not known).
 */
function homeOf(languages: readonly string[] | undefined): ReadonlySet<string> | null {
  if (languages === undefined) return null;
  let home = HOMES.get(languages);
  if (home === undefined) HOMES.set(languages, (home = new Set(['en', ...languages])));
  return home;
}

/** A vault's languages → its home set: a vault's array is read once for all its names and queries. */
const HOMES = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether `language`'s list may read `words`: a home language, or two of its words. */
function readsIn(language: string, list: ReadonlySet<string>, words: readonly string[], home: ReadonlySet<string> | null): boolean {
  if (home === null || home.has(language)) return true;
  let count = 0;
  for (const word of words) if (list.has(foldToken(word)) && ++count === 2) return true;
  return false;
}

const QUESTION_WORDS = new Map<string, ReadonlySet<string>>();

/**
 * A language's function words and its stop words: in a vault of several languages a stop word
 * of one is a term to another (English stops `and`; to Portuguese it is a word, and "who is our
 * contact at Tessellate and how…" searched it), so a question in one drops them all.
 */
function questionWordsOf(language: string): ReadonlySet<string> {
  let words = QUESTION_WORDS.get(language);
  if (words === undefined) {
    const inQuestionsOnly = [ASKERS_TIME[language], HEDGES[language], QUANTIFIERS[language]].flatMap((list) => (list ?? '').split(' ').filter(Boolean));
    words = new Set([...FUNCTION_WORDS.get(language)!, ...stopWordsOf(language as Language).map(foldToken), ...inQuestionsOnly.map(foldToken)]);
    QUESTION_WORDS.set(language, words);
  }
  return words;
}

/** Whether a word is one of `language`'s function or stop words, as a question drops them (`questionWordsOf`). */
export function isQuestionWord(language: string, word: string): boolean {
  return FUNCTION_WORDS.has(language) && questionWordsOf(language).has(foldToken(word));
}

/** Punctuation between two words that ends a sentence. */
const SENTENCE_END = /[.!?;。！？]/u;

/**
 * One sentence's reading. A question, or a request ("tell me about …", `requests.ts`): both lose
 * their function words, and a request its framing; a statement keeps every word.
 */
function readSentence(text: string, words: readonly string[], home: ReadonlySet<string> | null): { language: string | null; functional: (index: number) => boolean } {
  const question = isQuestion(text, words, home);
  const request = question ? null : openingRequest(words, (name, word) => FUNCTION_WORDS.get(name)!.has(word));
  const language = request !== null ? request.language : question ? functionWordLanguage(words, home) : null;
  if (language === null) return statementReading(words);
  const functionWords = questionWordsOf(language);
  // A question may open with a request too ("can you tell me about …?").
  const framing = request !== null ? request.framing : leadingRequest(language, words, (word) => functionWords.has(word));
  const titleCase = isTitleCase(words);
  return {
    language,
    functional: (index) => index < framing || ((functionWords.has(foldToken(words[index]!)) || inQuestionPhrase(language, words, index)) && !writtenAsName(language, words, index, titleCase)),
  };
}

/**
 * The asker's pronouns, which a statement or an imperative loses too ("Stop my Archive folder
 * from syncing to my phone", "put my travel notes on a map"): they say whose the need is, not
 * what it is, and a note that uses them most ("my subscription", "your vault") is not about
 * the need. Other words of a statement stay: in a claim ("vitamin D does not prevent falls")
 * its verbs and negations are the claim. English only: the statement's language is not read.
 * Not `I`, `me`, `us` or `mine`, which are also a numeral, a title's word, a country and a noun
 * ("World War I", "Moving to the US", "Gold Mine"). Note names are read the same way, so "my
 * reading list" still covers the name `My reading list`.
 */
const ASKERS_PRONOUNS = new Set('my myself we our ours ourselves you your yours yourself yourselves'.split(' '));

function statementReading(words: readonly string[]): { language: string | null; functional: (index: number) => boolean } {
  let titleCase: boolean | undefined;
  return {
    language: null,
    functional: (index) => ASKERS_PRONOUNS.has(foldToken(words[index]!)) && !writtenAsName('en', words, index, (titleCase ??= isTitleCase(words))),
  };
}

export interface QueryReading {
  /** The query's quoted spans (`parseQuerySyntax`): their words are searched, never read as asking. */
  quoted?: readonly QuotedSpan[];
  /** The vault's languages: theirs and English's function words make a question, another's only two together (`homeOf`). Every language's when absent. */
  languages?: readonly string[];
}

/**
 * Splits a query's tokens into content and function words, sentence by sentence: an agent's long
 * query states the situation, then asks ("… They want a nightly job. Find the command line
 * tool"), and each sentence is a question, a request or a statement of its own. A query made
 * only of function words ("what is it", "how") keeps them all: it still has to find something.
 */
export function analyzeQuery(query: string, tokenize: Tokenizer, reading: QueryReading = {}): AnalyzedQuery {
  const quotedSpans = reading.quoted ?? [];
  const home = homeOf(reading.languages);
  const words: string[] = [];
  const sentences: { first: number; text: string }[] = [];
  let sentenceStart = 0;
  let previousEnd = 0;
  // Most queries (and every note name read through here) are one sentence: no gap is looked at.
  const punctuated = SENTENCE_END.test(query);
  const marked = quotedSpans.length === 0 ? null : new Set<number>();
  let span = 0;
  scanWordSpans(query, (start, end) => {
    // Spans are in the order of the text, as words are: a word is quoted when a span holds it whole.
    if (marked !== null) {
      while (span < quotedSpans.length && quotedSpans[span]!.to <= start) span++;
      const around = quotedSpans[span];
      if (around !== undefined && around.from <= start && end <= around.to) marked.add(words.length);
    }
    if (words.length === 0 || (punctuated && SENTENCE_END.test(query.slice(previousEnd, start)))) {
      if (words.length > 0) sentences[sentences.length - 1]!.text = query.slice(sentenceStart, start);
      sentences.push({ first: words.length, text: '' });
      sentenceStart = start;
    }
    words.push(query.slice(start, end));
    previousEnd = end;
  });
  if (sentences.length > 0) sentences[sentences.length - 1]!.text = query.slice(sentenceStart);
  const quoted = marked ?? NONE_QUOTED;
  const all: string[] = [];
  const content: string[] = [];
  const ignored: string[] = [];
  const wordOf = new Map<string, number>();
  // Each content word's tokens, by its index: `termWords`.
  const searched: (readonly string[] | undefined)[] = [];
  let quotedTerms: Set<string> | null = null;
  let language: string | null = null;
  sentences.forEach(({ first, text }, i) => {
    const own = sentences.length === 1 ? words : words.slice(first, i + 1 < sentences.length ? sentences[i + 1]!.first : words.length);
    const read = readSentence(text, own, home);
    language ??= read.language;
    for (const [at, word] of own.entries()) {
      const index = first + at;
      const tokens = tokenize.expand(word);
      for (const token of tokens) if (!wordOf.has(token)) wordOf.set(token, index);
      if (quoted.has(index)) for (const token of tokens) (quotedTerms ??= new Set()).add(token);
      const into = !quoted.has(index) && read.functional(at) ? ignored : content;
      if (into === content) searched[index] = tokens;
      for (const token of tokens) {
        all.push(token);
        into.push(token);
      }
    }
  });
  const read = { language, wordOf, words, quoted, quotedTerms: quotedTerms ?? NONE_QUOTED_TERMS };
  if (content.length === 0) return { all, content: all.slice(), ignored: [], ...read, termWords: wordsOfTerms(words.map((word) => tokenize.expand(word))) };
  const kept = new Set(content);
  return { all, content, ignored: [...new Set(ignored)].filter((token) => !kept.has(token)), ...read, termWords: wordsOfTerms(searched) };
}

/** Token → the indexes of the words (`tokensOf[index]`, undefined for a word not searched) that yield it. */
function wordsOfTerms(tokensOf: readonly (readonly string[] | undefined)[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  tokensOf.forEach((tokens, index) => {
    for (const token of tokens ?? []) {
      const at = out.get(token);
      if (at === undefined) out.set(token, [index]);
      else if (at[at.length - 1] !== index) at.push(index);
    }
  });
  return out;
}

/** What an unquoted query has quoted (shared: never added to). */
const NONE_QUOTED: ReadonlySet<number> = new Set();
const NONE_QUOTED_TERMS: ReadonlySet<string> = new Set();
