/**
 * Entity notes: markdown under `<agent root>/Graph/<Type>/<Name>.md` that Obsidian shows, links
 * and graphs like any note. Generated from the cache, except the summary paragraph, which a
 * human may edit: an update keeps whatever stands between the title and `## Mentions`.
 */
import type { EntityType } from './model.js';

export interface EntityNote {
  entity: { name: string; type: EntityType; created: string; updated: string };
  aliases: string[];
  mentions: { path: string; title: string; evidence: string }[];
  relations: { relation: string; direction: 'in' | 'out'; other: string; other_path: string; source: string; evidence: string }[];
  /** Set when this entity was merged into another: the note becomes a stub that points there. */
  mergedInto?: { name: string; note_path: string } | null;
}

/** The note's text; `current` is the existing note (its summary is kept). */
export function renderEntityNote(note: EntityNote, current: string | null): string {
  const { entity } = note;
  if (note.mergedInto) {
    // A stub, so every link to the old name still lands somewhere that says where to go.
    return [
      '---',
      `entity: ${entity.type}`,
      `merged_into: ${quote(`[[${link(note.mergedInto.note_path)}|${note.mergedInto.name}]]`)}`,
      `tags: [graph/merged]`,
      `created: ${entity.created}`,
      `updated: ${entity.updated}`,
      '---',
      `# ${entity.name}`,
      '',
      `Merged into [[${link(note.mergedInto.note_path)}|${note.mergedInto.name}]]: the same ${entity.type}. Its mentions and relations are listed there.`,
      '',
    ].join('\n');
  }
  const summary = keptSummary(current) ?? defaultSummary(note);
  const lines = [
    '---',
    `entity: ${entity.type}`,
    `aliases: [${note.aliases.map(quote).join(', ')}]`,
    `tags: [graph/${entity.type}]`,
    `created: ${entity.created}`,
    `updated: ${entity.updated}`,
    '---',
    `# ${entity.name}`,
    '',
    summary,
    '',
    '## Mentions',
    '',
    ...(note.mentions.length === 0
      ? ['No note mentions this entity any more: proposed for retirement (it is kept until a human removes it).']
      : note.mentions.map((mention) => `- [[${link(mention.path)}|${mention.title}]]${mention.evidence ? ` — "${mention.evidence}"` : ''}`)),
    '',
    '## Relations',
    '',
    ...(note.relations.length === 0
      ? ['None yet.']
      : note.relations.map((relation) => {
          const other = `[[${link(relation.other_path)}|${relation.other}]]`;
          const phrase = relation.direction === 'out' ? `${relation.relation.replace(/_/g, ' ')} ${other}` : `${other} ${relation.relation.replace(/_/g, ' ')} this`;
          return `- ${phrase} (from [[${link(relation.source)}]])${relation.evidence ? ` — "${relation.evidence}"` : ''}`;
        })),
    '',
  ];
  return lines.join('\n');
}

function defaultSummary(note: EntityNote): string {
  const count = note.mentions.length;
  return `${/^[aeiou]/.test(note.entity.type) ? 'An' : 'A'} ${note.entity.type} mentioned in ${count} note${count === 1 ? '' : 's'}.`;
}

/** The human-editable part: the text between the title and `## Mentions`, when it exists. */
function keptSummary(current: string | null): string | null {
  if (!current) return null;
  const match = /^# .*\n([\s\S]*?)\n## Mentions/m.exec(current);
  const text = match?.[1]?.trim();
  // Our own generated line is regenerated (its count changes); anything else is the human's.
  if (!text || /^An? \w+ mentioned in \d+ notes?\.$/.test(text)) return null;
  return text;
}

function link(path: string): string {
  return path.replace(/\.md$/i, '');
}

function quote(value: string): string {
  return JSON.stringify(value);
}
