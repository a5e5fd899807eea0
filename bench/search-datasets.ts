/**
 * Datasets for the search benchmark: `scifact` (BEIR, from ../shared when present; never
 * required) and `synthetic:N` (the deterministic generator's vault of N notes, parsed with the
 * production parser, with deterministic queries drawn from its own text).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBeir } from '../src/eval/index.js';
import { noteFieldTexts } from '../src/search/index.js';
import { parseNote } from '../src/vault/index.js';
import { generateVault, seededRandom } from './generate-vault.js';

export interface BenchDocument {
  id: string;
  title: string;
  body: string;
}

export const SCIFACT = fileURLToPath(new URL('../../shared/corpora/scifact', import.meta.url));

export function loadDataset(name: string): { documents: BenchDocument[]; queries: string[] } {
  if (name === 'scifact') {
    const data = loadBeir(SCIFACT, 'test');
    return {
      documents: data.documents.map((d) => ({ id: d.id, title: d.title, body: d.text })),
      queries: [...data.qrels.keys()].map((id) => data.queries.get(id)!).filter((text) => text !== undefined),
    };
  }
  const size = Number(name.split(':')[1]);
  const root = syntheticVault(size);
  const documents: BenchDocument[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.name.endsWith('.md')) {
        const path = relative(root, abs);
        const text = readFileSync(abs, 'utf8');
        const fields = noteFieldTexts(parseNote(path, text), text);
        documents.push({ id: path, title: fields.title, body: [fields.aliases, fields.headings, fields.tags, fields.body].join('\n') });
      }
    }
  };
  walk(root);
  documents.sort((a, b) => (a.id < b.id ? -1 : 1));
  const random = seededRandom(size);
  const queries: string[] = [];
  for (let i = 0; i < 300; i++) {
    const words = documents[Math.floor(random() * documents.length)]!.body.match(/\p{L}{4,}/gu) ?? ['nothing'];
    const n = 1 + Math.floor(random() * 3);
    queries.push(Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' '));
  }
  return { documents, queries };
}

/** The pristine synthetic vault of `size` notes: reused while its marker says it is untouched. */
export function syntheticVault(size: number): string {
  const root = fileURLToPath(new URL(`./.vaults/${size}`, import.meta.url));
  if (!existsSync(join(root, '.generated'))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    generateVault(root, size);
    writeFileSync(join(root, '.generated'), 'deterministic synthetic vault; safe to delete\n');
  }
  return root;
}
