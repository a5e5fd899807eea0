/**
 * Finding projects and issues for the work tools: the index says which notes exist, the files
 * say what they hold (read from disk on every call, so a human's edit is what the tools see).
 */
import { posix } from 'node:path';
import { EngramError } from '../../errors.js';
import { parseIssue, type IssueRecord } from '../../librarian/index.js';
import { parseNote } from '../../vault/index.js';
import type { VaultEngine } from '../engine.js';
import { readIndexed } from './shared.js';

export interface Project {
  name: string;
  /** The project's folder, vault-relative. */
  folder: string;
  readme: string;
  /** Days a closed issue waits before it is archived (0: at once). */
  archiveAfterDays: number;
}

/** Every project: a folder whose README.md says `type: project`. */
export function findProjects(engine: VaultEngine): Project[] {
  return engine
    .knownPaths()
    .filter((path) => /\/README\.md$/i.test(path))
    .flatMap((readme) => {
      const read = readIndexed(engine, readme);
      if (!read.ok) return [];
      const data = parseNote(readme, read.text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')).frontmatter;
      if (String(data?.type ?? '').toLowerCase() !== 'project') return [];
      const folder = posix.dirname(readme);
      const days = Number(data?.archive_after_days ?? 0);
      return [{ name: posix.basename(folder), folder, readme, archiveAfterDays: Number.isFinite(days) && days > 0 ? days : 0 }];
    })
    .sort((a, b) => (a.folder < b.folder ? -1 : 1));
}

/** The one project of this name (case-insensitive), or a NOT_FOUND / ambiguous error naming the candidates. */
export function findProject(engine: VaultEngine, name: string): Project {
  const projects = findProjects(engine);
  const matches = projects.filter((project) => project.name.toLowerCase() === name.trim().toLowerCase());
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) throw new EngramError('INVALID_INPUT', `"${name}" names ${matches.length} projects (${matches.map((p) => p.folder).join(', ')}); rename one of the folders, or give the project's folder path`);
  throw unknownProject(projects, `no project "${name}"`);
}

/** NOT_FOUND for a project no project is: `said`, then the projects there are (or how to make one). */
export function unknownProject(projects: readonly Project[], said: string): EngramError {
  const known = projects.map((project) => project.name);
  return new EngramError('NOT_FOUND', `${said}${known.length > 0 ? `; the projects are: ${known.join(', ')}` : '; create it with create_project'}`);
}

/** A project's issues, open and archived, as their files say now. */
export function projectIssues(engine: VaultEngine, project: Project): IssueRecord[] {
  const prefixes = [`${project.folder}/Issues/`, `${project.folder}/Archive/`];
  return engine
    .knownPaths()
    .filter((path) => prefixes.some((prefix) => path.startsWith(prefix)))
    .flatMap((path) => {
      const read = readIndexed(engine, path);
      const issue = read.ok ? parseIssue(path, read.text) : null;
      return issue ? [issue] : [];
    })
    .sort((a, b) => a.id - b.id || (a.path < b.path ? -1 : 1));
}

/** The issue `id` of a project (or of the only project that has one), refusing a missing or ambiguous id. */
export function findIssue(engine: VaultEngine, id: number, projectName: string | undefined): { project: Project; issue: IssueRecord } {
  const projects = projectName === undefined ? findProjects(engine) : [findProject(engine, projectName)];
  const found = projects.flatMap((project) => projectIssues(engine, project).flatMap((issue) => (issue.id === id ? [{ project, issue }] : [])));
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new EngramError('NOT_FOUND', `no issue ${id}${projectName ? ` in ${projectName}` : ''}; list_issues shows the issues and their ids`);
  throw new EngramError('INVALID_INPUT', `issue ${id} is ambiguous: ${found.map((entry) => entry.issue.path).join(', ')}; ${projectName ? 'two notes carry that id — renumber one in Obsidian' : 'give the project'}`);
}

export const isArchived = (project: Project, issue: IssueRecord) => issue.path.startsWith(`${project.folder}/Archive/`);
