/**
 * Projects and issues as plain notes, pure: a project is a folder with a README note (type:
 * project) and an Issues/ folder; an issue is a note whose frontmatter is its record (type:
 * issue, issue (its number), project, status, priority, assignee, labels, created, updated,
 * closed — Dataview reads them as they are). The file is the truth: a human's edit in Obsidian is
 * what the next read sees, and an update changes only the fields it names, leaving the human's
 * own fields and the body alone.
 *
 * The number is written as `issue:`, not `id:`: `id` is a note's identity across the vault
 * (vault/relations.ts), and every project's issue 1 would share it. Notes written before, with
 * `id:`, are read as they are.
 */
import { EngramError } from '../errors.js';
import { parseNote } from '../vault/index.js';
import { safeNoteName } from '../writes/index.js';

export const ISSUE_STATUSES = ['open', 'doing', 'done', 'wontfix'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
export const ISSUE_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

/** The moves an issue's status may make; anything else is refused with these named. */
const TRANSITIONS: Record<IssueStatus, readonly IssueStatus[]> = {
  open: ['doing', 'done', 'wontfix'],
  doing: ['open', 'done', 'wontfix'],
  done: ['open'],
  wontfix: ['open'],
};

export const CLOSED: ReadonlySet<string> = new Set(['done', 'wontfix']);

export const PROJECT_DEFAULTS = {
  /** Longest project name, in characters (it is a folder name and part of every issue's path). */
  maxNameChars: 60,
  /** Folder names inside a project that a project cannot be called (they would read as its parts). */
  reserved: ['issues', 'archive', 'readme', 'projects'],
} as const;

export interface IssueRecord {
  path: string;
  id: number;
  title: string;
  project: string;
  status: string;
  priority: string | null;
  assignee: string | null;
  labels: string[];
  created: string | null;
  updated: string | null;
  closed: string | null;
}

/** Why a status change is not allowed, or null when it is (staying put is allowed). */
export function transitionProblem(from: string, to: IssueStatus): string | null {
  if (from === to) return null;
  const allowed = TRANSITIONS[from as IssueStatus];
  if (allowed === undefined) return null; // a status a human typed: any known status replaces it
  return allowed.includes(to) ? null : `an issue cannot go from ${from} to ${to}; from ${from} it goes to ${allowed.join(' or ')}`;
}

/** Why a project name cannot be used, or null. A name, not a path: no separators, no dots alone. */
export function projectNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (/[\\/]/.test(trimmed) || trimmed.includes('..')) return `"${name}" is a path; a project name is one folder name, such as "Atlas"`;
  if (Array.from(trimmed).length > PROJECT_DEFAULTS.maxNameChars) return `the project name is ${Array.from(trimmed).length} characters; keep it under ${PROJECT_DEFAULTS.maxNameChars}`;
  if ((PROJECT_DEFAULTS.reserved as readonly string[]).includes(trimmed.toLowerCase())) return `"${trimmed}" is reserved (a project's own folders are ${PROJECT_DEFAULTS.reserved.join(', ')}); choose another name`;
  const checked = safeNoteName(trimmed);
  return checked.ok ? null : checked.reason.replace(/the title/g, 'the project name');
}

/** The record of an issue note, or null when the note is not an issue (no `type: issue`). */
export function parseIssue(path: string, text: string): IssueRecord | null {
  const note = parseNote(path, text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n'));
  const data = note.frontmatter;
  if (!data || String(data.type ?? '').toLowerCase() !== 'issue') return null;
  const id = issueNumber(data);
  const field = (key: string) => (data[key] === undefined || data[key] === null || data[key] === '' ? null : String(data[key]));
  const labels = Array.isArray(data.labels) ? data.labels.map(String) : typeof data.labels === 'string' ? data.labels.split(/[,\s]+/).filter(Boolean) : [];
  return {
    path,
    id,
    title: note.title,
    project: field('project') ?? '',
    status: (field('status') ?? 'open').toLowerCase(),
    priority: field('priority'),
    assignee: field('assignee'),
    labels,
    created: field('created'),
    updated: field('updated'),
    closed: field('closed'),
  };
}

/**
 * An issue note's number: `issue:` (written since the number left the identity key), else `id:`
 * (notes written before); -1 when neither is a positive whole number.
 */
export function issueNumber(data: Record<string, unknown>): number {
  const numbers = [data.issue, data.id].map((value) => (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : NaN));
  return numbers.find((value) => Number.isInteger(value) && value > 0) ?? -1;
}

/** A YAML scalar that reads back as the same string (quoted when plain YAML would change it). */
export function yamlValue(value: string): string {
  return /^[\p{L}\p{N}][\p{L}\p{N} _./-]*$/u.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value) && !/^[\d.-]+$/.test(value) ? value : JSON.stringify(value);
}

export const yamlList = (values: readonly string[]) => `[${values.map(yamlValue).join(', ')}]`;

/**
 * Sets frontmatter fields (values already YAML) in a note's text, each on its own line: a field
 * present is replaced (with the indented lines of a block value under it), a new one is added
 * before the closing fence; `null` removes a field. Everything else stays byte for byte.
 */
export function setFields(text: string, fields: Record<string, string | null>): string {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '---') throw new EngramError('INVALID_INPUT', 'the note has no frontmatter to update; it is not an issue note');
  const close = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (close === -1) throw new EngramError('INVALID_INPUT', 'the note\'s frontmatter is not closed with "---"; fix it in Obsidian');
  const head = lines.slice(1, close);
  for (const [key, value] of Object.entries(fields)) {
    const at = head.findIndex((line) => new RegExp(`^${key}\\s*:`, 'i').test(line));
    let end = at + 1;
    while (at !== -1 && end < head.length && /^(\s+|\s*-\s)/.test(head[end]!)) end++;
    const replacement = value === null ? [] : [`${key}: ${value}`];
    if (at === -1) head.push(...replacement);
    else head.splice(at, end - at, ...replacement);
  }
  return [lines[0]!, ...head, ...lines.slice(close)].join('\n');
}

/** A new issue note. */
export function renderIssue(issue: { id: number; title: string; project: string; priority: string; assignee: string | null; labels: readonly string[]; body: string; today: string }): string {
  return [
    '---',
    'type: issue',
    `issue: ${issue.id}`,
    `project: ${yamlValue(issue.project)}`,
    'status: open',
    `priority: ${issue.priority}`,
    ...(issue.assignee ? [`assignee: ${yamlValue(issue.assignee)}`] : []),
    `labels: ${yamlList(issue.labels)}`,
    `created: ${issue.today}`,
    `updated: ${issue.today}`,
    '---',
    `# ${issue.title}`,
    '',
    ...(issue.body.trim() ? [issue.body.trim(), ''] : []),
    '## Comments',
    '',
  ].join('\n');
}

/** A new project's README: the record in frontmatter, goal and status in the body, and its issues as a Dataview table. */
export function renderProject(project: { name: string; folder: string; goal: string; links: readonly string[]; today: string; archiveAfterDays: number }): string {
  return [
    '---',
    'type: project',
    `name: ${yamlValue(project.name)}`,
    'status: active',
    `created: ${project.today}`,
    `archive_after_days: ${project.archiveAfterDays}`,
    'next_issue: 1',
    '---',
    `# ${project.name}`,
    '',
    '## Goal',
    '',
    project.goal.trim() || '(to be written)',
    '',
    '## Status',
    '',
    'active',
    '',
    '## Links',
    '',
    ...(project.links.length > 0 ? project.links.map((link) => `- ${link}`) : ['- (none yet)']),
    '',
    '## Issues',
    '',
    '```dataview',
    `TABLE issue, status, priority, assignee, labels FROM "${project.folder}" WHERE type = "issue" SORT issue ASC`,
    '```',
    '',
  ].join('\n');
}

/** Takes the next issue number from a project README's text (at least `floor`), and the README with it counted. */
export function takeIssueNumber(readme: string, floor: number): { id: number; text: string } {
  const stored = Number(parseNote('README.md', readme).frontmatter?.next_issue);
  const id = Math.max(Number.isInteger(stored) && stored > 0 ? stored : 1, floor);
  return { id, text: setFields(readme, { next_issue: String(id + 1) }) };
}
