/**
 * The raw material of a digest or a project resume, from the index as it is: agent sessions,
 * Inbox captures, open tasks, decisions, changed notes — and for a digest the caretaker's last
 * sweep, pending proposals and new graph activity. Each section says its status (ok, empty, or
 * why it is missing). One function for the MCP `recall_bundle` and `engram context`.
 */
import type Database from 'better-sqlite3';
import { issueNumber } from './issues.js';
import { listOrganizeProposals } from './organize.js';
import { lastSweep } from './status.js';

export interface RecallOptions {
  agentRoot: string;
  mode: 'digest' | 'resume';
  /** Matched in paths, titles, tags and frontmatter (case-insensitive). */
  project: string | null;
  sinceMs: number;
  /** Items per section. */
  limit: number;
}

export interface RecallSection {
  status: string;
  items: Record<string, unknown>[];
}

export interface RecallBundle {
  mode: 'digest' | 'resume';
  since: string;
  project: string | null;
  sections: Record<string, RecallSection>;
}

interface NoteRow {
  id: number;
  path: string;
  title: string;
  type: string | null;
  mtime_ms: number;
  frontmatter: string | null;
  tags: string | null;
}

export function recallBundle(db: Database.Database, options: RecallOptions): RecallBundle {
  const agent = `${options.agentRoot}/`;
  const project = options.project?.toLowerCase() ?? null;
  const mentions = projectMatcher(options.project);
  const notes = noteRows(db);
  const inProject = (note: NoteRow) => project === null || mentionedIn(note, mentions);
  const section = (items: Record<string, unknown>[], missing?: string): RecallSection => ({ status: missing ?? (items.length === 0 ? 'empty' : 'ok'), items: items.slice(0, options.limit) });
  const brief = (note: NoteRow) => ({ path: note.path, title: note.title, modified: new Date(note.mtime_ms).toISOString() });
  const recent = notes.filter((note) => note.mtime_ms >= options.sinceMs && inProject(note));
  const noAgentFolder = notes.some((note) => note.path.startsWith(agent)) ? undefined : `no ${agent} folder in this vault yet`;
  // A folder's README (installed by `engram provision`) describes the folder; it is not a session or a capture.
  const isReadme = (note: NoteRow) => /(^|\/)readme\.md$/i.test(note.path);
  // Sessions newest first by the date they are about (in the name or frontmatter), not by file time.
  const sessions = recent.filter((note) => note.path.startsWith(`${agent}Sessions/`) && !isReadme(note)).sort((a, b) => (noteDate(b) < noteDate(a) ? -1 : noteDate(b) > noteDate(a) ? 1 : 0));
  const captures = recent.filter((note) => note.path.startsWith(`${agent}Inbox/`) && !isReadme(note));
  const tasks = (
    db.prepare(`SELECT n.path, t.line, t.text, t.due, t.priority FROM tasks t JOIN notes n ON n.id = t.note_id WHERE t.status = ' ' ORDER BY t.due IS NULL, t.due, n.path, t.line`).all() as {
      path: string;
      line: number;
      text: string;
      due: string | null;
      priority: string | null;
    }[]
  ).filter((task) => project === null || mentions(task.path) || mentions(task.text));
  // The agents' shared ledger always counts (its lines name their projects); other decision notes by project.
  const ledger = `${agent}Decisions.md`;
  const decisions = notes.filter((note) => (note.path === ledger || inProject(note)) && (/decision/i.test(note.path) || note.type?.toLowerCase() === 'decision'));
  const changed = recent.filter((note) => !note.path.startsWith(agent));
  const bundle: RecallBundle = {
    mode: options.mode,
    since: new Date(options.sinceMs).toISOString(),
    project: options.project,
    sections: {
      sessions: section(
        sessions.map((note) => ({ ...brief(note), date: noteDate(note) })),
        noAgentFolder,
      ),
      captures: section(captures.map(brief), noAgentFolder),
      open_tasks: section(tasks),
      open_issues: section(openIssues(notes.filter(inProject))),
      decisions: section(decisions.map(brief)),
      changed_notes: section(changed.map((note) => ({ ...brief(note), folder: note.path.includes('/') ? note.path.slice(0, note.path.indexOf('/')) : '' }))),
    },
  };
  if (options.mode === 'digest') {
    const sweep = lastSweep(db);
    bundle.sections.librarian =
      sweep === null
        ? section([], 'no sweep yet: run engram librarian, or engram daemon on a schedule')
        : section([{ run_id: sweep.run_id, status: sweep.status, finished_at: sweep.finished_at, moves: sweep.moves, health: sweep.health.filter((check) => !check.ok), errors: sweep.errors }]);
    const filings = listOrganizeProposals(db).map((p) => ({ kind: 'filing', id: p.id, path: p.path, target: p.target, share: p.share, reason: p.reason }));
    const merges = (
      db
        .prepare(
          `SELECT p.id, w.name AS winner, l.name AS loser, w.type, p.reason FROM proposals p JOIN entities w ON w.id = p.winner_id JOIN entities l ON l.id = p.loser_id
      WHERE p.status = 'pending' ORDER BY p.id`,
        )
        .all() as Record<string, unknown>[]
    ).map((p) => ({ kind: 'merge', ...p }));
    bundle.sections.proposals = section([...filings, ...merges]);
    const sinceIso = bundle.since;
    const entities = db
      .prepare(
        `SELECT e.name, e.type, e.note_path, e.created, (SELECT count(*) FROM mentions m WHERE m.entity_id = e.id) AS mentions FROM entities e
      WHERE e.merged_into IS NULL AND e.updated >= ? ORDER BY e.updated DESC`,
      )
      .all(sinceIso) as { name: string; type: string; note_path: string; created: string; mentions: number }[];
    bundle.sections.graph = section(entities.map((entity) => ({ ...entity, new: entity.created >= sinceIso })));
  }
  return bundle;
}

/** Whether any indexed note names the project where a recall looks (path, title, tags, frontmatter): if none does, the name is likely wrong. */
export function projectMentioned(db: Database.Database, project: string): boolean {
  const mentions = projectMatcher(project);
  return noteRows(db).some((note) => mentionedIn(note, mentions));
}

function noteRows(db: Database.Database): NoteRow[] {
  return db
    .prepare(
      `SELECT n.id, n.path, n.title, n.type, n.mtime_ms, n.frontmatter, (SELECT group_concat(tag, ' ') FROM tags WHERE note_id = n.id) AS tags
    FROM notes n ORDER BY n.mtime_ms DESC`,
    )
    .all() as NoteRow[];
}

const mentionedIn = (note: NoteRow, mentions: (text: string) => boolean) => [note.path, note.title, note.tags ?? '', note.frontmatter ?? ''].some(mentions);

/** Issue notes (frontmatter `type: issue`) still open or in progress, by project and number. */
function openIssues(notes: readonly NoteRow[]): Record<string, unknown>[] {
  const issues = notes.flatMap((note) => {
    const fields = (note.frontmatter ? JSON.parse(note.frontmatter) : {}) as Record<string, unknown>;
    const status = String(fields.status ?? 'open').toLowerCase();
    if (String(fields.type ?? '').toLowerCase() !== 'issue' || (status !== 'open' && status !== 'doing')) return [];
    const text = (key: string) => (fields[key] === undefined || fields[key] === null ? null : String(fields[key]));
    return [{ path: note.path, project: text('project'), id: issueNumber(fields), title: note.title, status, priority: text('priority'), assignee: text('assignee') }];
  });
  return issues.sort((a, b) => String(a.project).localeCompare(String(b.project)) || a.id - b.id);
}

/**
 * Whether a text names the project as a whole word (`app` is in "the app", not in "Happy
 * hour"); `project/app` tags and `Projects/App/` folders count. Null project: everything.
 */
export function projectMatcher(project: string | null | undefined): (text: string) => boolean {
  if (!project) return () => true;
  const escaped = project.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u');
  return (text) => pattern.test(text.toLowerCase());
}

/** The day a note is about: a `YYYY-MM-DD` its name starts with, else frontmatter `date`/`created`, else its file time. */
function noteDate(note: NoteRow): string {
  const named = /^(\d{4}-\d{2}-\d{2})/.exec(note.path.slice(note.path.lastIndexOf('/') + 1));
  if (named) return named[1]!;
  try {
    const front = note.frontmatter ? (JSON.parse(note.frontmatter) as Record<string, unknown>) : {};
    for (const key of ['date', 'created']) {
      const value = front[key];
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
    }
  } catch {
    // unreadable frontmatter: the file time
  }
  return new Date(note.mtime_ms).toISOString().slice(0, 10);
}

/**
 * A compact briefing for a Claude Code SessionStart hook (at most `maxChars`): the project's
 * latest sessions with an excerpt, its open tasks, and the latest decisions.
 */
export function briefing(bundle: RecallBundle, read: (path: string) => string | null, maxChars = 2000): string {
  const mentions = projectMatcher(bundle.project);
  const lines: string[] = [`Engram memory${bundle.project ? ` for "${bundle.project}"` : ''} (since ${bundle.since.slice(0, 10)}):`];
  const sessions = bundle.sections.sessions!.items.slice(0, 3) as { path: string; title: string; date: string }[];
  lines.push(sessions.length === 0 ? 'Sessions: none logged yet.' : 'Recent sessions:');
  for (const session of sessions) {
    const text = read(session.path);
    const excerpt = text === null ? '' : bodyExcerpt(text, 300);
    lines.push(`- [[${session.path.replace(/\.md$/i, '')}]] (${session.date})${excerpt ? `: ${excerpt}` : ''}`);
  }
  const tasks = bundle.sections.open_tasks!.items.slice(0, 5) as { path: string; text: string; due: string | null }[];
  if (tasks.length > 0) lines.push('Open tasks:', ...tasks.map((task) => `- [ ] ${task.text}${task.due ? ` (due ${task.due})` : ''} — ${task.path}`));
  const decisionLines: string[] = [];
  for (const note of bundle.sections.decisions!.items as { path: string; title: string }[]) {
    const text = read(note.path);
    if (text === null) continue;
    // In a note that is not the project's own, only the lines that name the project.
    const own = mentions(note.path) || mentions(note.title);
    // Entries are list items, or numbered or dated headings (`## D3 — …`, not `## Context`), of
    // the body, newest last by convention.
    const body = text.replace(/^---\r?\n[\s\S]*?\r?\n(---|\.\.\.)\r?\n/, '');
    for (const line of body.split(/\r?\n/).reverse()) {
      const heading = /^#{2,3} (\S.*\d.*)$/.exec(line)?.[1];
      const entry = /^\s*[-*] (?!\[.\])(\S.*)$/.exec(line)?.[1] ?? heading;
      if (entry && (own || mentions(entry)) && decisionLines.length < 3) decisionLines.push(`- ${entry.trim()}`);
    }
    if (decisionLines.length >= 3) break;
  }
  if (decisionLines.length > 0) lines.push('Latest decisions:', ...decisionLines);
  lines.push('Search the vault with search_brain / context_bundle before answering from memory.');
  let out = '';
  // Each line is capped first, so one huge task cannot push out everything after it.
  for (const line of lines.map((text) => cut(text, 400))) {
    const next = out === '' ? line : `${out}\n${line}`;
    if (next.length > maxChars - 2) return `${out}\n…`;
    out = next;
  }
  return out;
}

/** The first `chars` characters of a note's body: frontmatter and headings dropped, whitespace folded. */
function bodyExcerpt(text: string, chars: number): string {
  const body = text
    .replace(/^---\r?\n[\s\S]*?\r?\n(---|\.\.\.)\r?\n/, '')
    .split(/\r?\n/)
    .filter((line) => !/^#{1,6} /.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cut(body, chars);
}

/** At most `chars` characters, cut between code points (never half an emoji), with `…`. */
function cut(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const points = Array.from(text);
  return points.length <= chars ? text : `${points.slice(0, chars - 1).join('')}…`;
}
