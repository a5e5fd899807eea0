/**
 * A deterministic synthetic vault: the same seed and size give byte-identical notes. The notes
 * look like a working vault's — frontmatter, nested folders, headings, wikilinks (bare,
 * path-qualified, aliased, to missing notes), tags, tasks, code blocks — with word frequencies
 * drawn from a Zipf-like distribution so term statistics resemble real text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seededRandom } from '../src/map/random.js';

const SYLLABLES = ['ka', 'lo', 'mi', 're', 'tan', 'vi', 'so', 'del', 'pra', 'un', 'ne', 'qua', 'ri', 'zen', 'bo', 'cha', 'fu', 'gar', 'hel', 'jo'];
const TOPICS = ['project', 'area/health', 'area/finance', 'area/engineering', 'status/active', 'status/done', 'meeting', 'idea', 'reading', 'person'];

// The one seeded generator (mulberry32), shared with the map's layout and the tests.
export { seededRandom };

function makeVocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 1 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

export interface GeneratedVault {
  paths: string[];
}

/** Writes `count` notes under `root`. */
export function generateVault(root: string, count: number, seed = 42): GeneratedVault {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const vocabulary = makeVocabulary(random, 5000);
  // Zipf-ish: the index of a word is drawn as floor(V * u^3), so low indexes are frequent.
  const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]!;
  const sentence = () => {
    const n = 6 + Math.floor(random() * 14);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(word());
    const text = out.join(' ');
    return text[0]!.toUpperCase() + text.slice(1) + '.';
  };
  const folders: string[] = [];
  for (let i = 0; i < Math.max(1, Math.round(count / 100)); i++) {
    folders.push(i % 4 === 0 ? `${capital(word())}` : `${capital(word())}/${capital(word())}`);
  }
  const paths: string[] = [];
  const titles: string[] = [];
  for (let i = 0; i < count; i++) {
    const title = `${capital(word())} ${word()} ${i}`;
    titles.push(title);
    paths.push(`${pick(folders)}/${title}.md`);
  }
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    lines.push('---');
    lines.push(`type: ${pick(['note', 'meeting', 'project', 'person', 'concept'])}`);
    lines.push(`tags: [${pick(TOPICS)}, ${pick(TOPICS)}]`);
    if (random() < 0.3) lines.push(`aliases: [${capital(word())} ${word()}]`);
    lines.push(`created: 2026-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`);
    lines.push('---');
    lines.push(`# ${titles[i]}`);
    lines.push('');
    const sections = 1 + Math.floor(random() * 4);
    for (let s = 0; s < sections; s++) {
      if (s > 0) lines.push('', `${random() < 0.7 ? '##' : '###'} ${capital(word())} ${word()}`, '');
      const paragraphs = 1 + Math.floor(random() * 3);
      for (let p = 0; p < paragraphs; p++) {
        const parts: string[] = [];
        const n = 2 + Math.floor(random() * 5);
        for (let k = 0; k < n; k++) parts.push(sentence());
        if (random() < 0.7) parts.push(`See [[${titles[Math.floor(random() * count)]}]].`);
        if (random() < 0.2) parts.push(`Also [[${paths[Math.floor(random() * count)]!.replace(/\.md$/, '')}|${word()}]].`);
        if (random() < 0.05) parts.push(`Missing: [[${capital(word())} draft]].`);
        if (random() < 0.2) parts.push(`#${pick(TOPICS)}`);
        lines.push(parts.join(' '), '');
      }
      if (random() < 0.3) lines.push(`- [${random() < 0.5 ? ' ' : 'x'}] ${sentence()} 📅 2026-0${1 + Math.floor(random() * 9)}-2${Math.floor(random() * 9)}`);
      if (random() < 0.1) lines.push('```ts', `const ${word()} = "${word()}"; // [[not a link]]`, '```');
    }
    const abs = join(root, paths[i]!);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, lines.join('\n') + '\n');
  }
  return { paths };
}

function capital(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
