/**
 * One note's text → a `Note`. Pure and total: any text parses; problems become warnings.
 */
import { listField, readFrontmatter, stringField, type Frontmatter } from './frontmatter.js';
import { extractFrontmatterLinks, extractLinks, type Link } from './links.js';
import { buildBlocks, codeLineMask, findHeadings, maskInlineCodeLines, type Block } from './markdown.js';
import { noteName } from './paths.js';
import { extractInlineTags, normalizeTag } from './tags.js';
import { readNoteId, readRelations } from './relations.js';
import { parseTask, type Task } from './tasks.js';
import { countWords } from './words.js';

export interface Note {
  /** Vault-relative path with `/`, original spelling. */
  path: string;
  title: string;
  /** Frontmatter `id` (else `uuid`) as an id key (`idKey`): the note's identity across renames, or null. */
  id: string | null;
  aliases: string[];
  /** Frontmatter `type`, else `kind`, else null. */
  type: string | null;
  /** Lower-cased, without `#`, nested as `a/b`; frontmatter and inline, deduplicated. */
  tags: string[];
  frontmatter: Frontmatter | null;
  blocks: Block[];
  links: Link[];
  tasks: Task[];
  wordCount: number;
  /** Lines as split on `\n` (a trailing newline makes a last, empty line). */
  lineCount: number;
  warnings: string[];
}

export function parseNote(path: string, text: string): Note {
  const lines = text.split('\n');
  const warnings: string[] = [];
  const front = readFrontmatter(lines);
  if (front.warning) warnings.push(front.warning);
  const data = front.data;

  const code = codeLineMask(lines, front.bodyStart);
  const headings = findHeadings(lines, code, front.bodyStart);
  const links: Link[] = [];
  // `related:` entries become typed relation links; every other field's wikilinks stay frontmatter links.
  const relations = readRelations(data);
  links.push(...relations.links);
  warnings.push(...relations.warnings);
  const identity = readNoteId(data);
  if (identity.warning) warnings.push(identity.warning);
  if (data) extractFrontmatterLinks(data, links, ['related']);
  const tagSet = new Set<string>();
  for (const raw of listField(data, ['tags', 'tag'], /[,\s]+/)) {
    const tag = normalizeTag(raw);
    if (tag) tagSet.add(tag);
  }
  const tasks: Task[] = [];
  const masked = maskInlineCodeLines(lines, code, front.bodyStart);
  let wordCount = 0;
  for (let i = front.bodyStart; i < lines.length; i++) {
    wordCount += countWords(lines[i]!);
    if (code[i]) continue;
    const line = masked[i]!;
    extractLinks(line, i + 1, links);
    extractInlineTags(line, tagSet);
    if (line.includes('[')) {
      const task = parseTask(line, i + 1);
      if (task) tasks.push(task);
    }
  }

  const h1 = headings.find((heading) => heading.level === 1);
  return {
    path,
    title: stringField(data, 'title') ?? h1?.text ?? noteName(path),
    id: identity.id,
    aliases: dedupe(listField(data, ['aliases', 'alias'], /,/)),
    type: stringField(data, 'type', 'kind'),
    tags: [...tagSet].sort(),
    frontmatter: data,
    blocks: buildBlocks(lines, headings, front.lines, code),
    links,
    tasks,
    wordCount,
    lineCount: lines.length,
    warnings,
  };
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
