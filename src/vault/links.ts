/**
 * Links: extraction from markdown (pure, per line) and resolution against the vault's files
 * the way Obsidian resolves them.
 */
import { baseName, foldPath, folderOf, isNotePath, joinVaultPath } from './paths.js';

export type LinkKind = 'wikilink' | 'embed' | 'markdown' | 'frontmatter' | 'related';

export interface Link {
  kind: LinkKind;
  /** The link path as written, decoded, without `#subpath` and `|alias`; `` for a self-link. */
  target: string;
  /** `#Heading` or `#^block` part without the leading `#`, or null. */
  subpath: string | null;
  /** `|alias` text or markdown link text, or null. */
  display: string | null;
  /** 1-based line; 0 for frontmatter links. */
  line: number;
  /** `related:` entries only: the id tried before the path (or null), the relation's type and note. */
  id?: string | null;
  type?: string | null;
  note?: string | null;
}

export const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;
// The destination may hold one level of balanced parentheses (`Meeting%20(2024).md`), as CommonMark allows.
export const MARKDOWN_LINK = /(!?)\[([^\]\n]*)\]\(\s*(<[^>\n]+>|(?:[^()\s]|\([^()\s]*\))+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
export const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Links on one code-masked line. */
export function extractLinks(line: string, lineNumber: number, out: Link[]): void {
  if (line.includes('[[')) {
    for (const match of line.matchAll(WIKILINK)) {
      const link = parseWikilink(match[2]!, match[1] === '!' ? 'embed' : 'wikilink', lineNumber);
      if (link) out.push(link);
    }
  }
  if (line.includes('](')) {
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      let raw = match[3]!;
      if (raw.startsWith('<')) raw = raw.slice(1, -1);
      if (SCHEME.test(raw)) continue; // external URL, mailto:, obsidian:// — not a vault link
      const { path, subpath } = splitSubpath(decodeLinkPath(raw));
      const kind: LinkKind = match[1] === '!' ? 'embed' : 'markdown';
      out.push({ kind, target: path, subpath, display: match[2]! === '' ? null : match[2]!, line: lineNumber });
    }
  }
}

/** Wikilinks inside frontmatter string values (`related: "[[Note]]"`), which Obsidian tracks. */
export function extractFrontmatterLinks(value: unknown, out: Link[], skipKeys: readonly string[] = []): void {
  if (typeof value === 'string') {
    if (!value.includes('[[')) return;
    for (const match of value.matchAll(WIKILINK)) {
      const link = parseWikilink(match[2]!, 'frontmatter', 0);
      if (link) out.push(link);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) extractFrontmatterLinks(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (!skipKeys.includes(key)) extractFrontmatterLinks(item, out);
  }
}

export function parseWikilink(inner: string, kind: LinkKind, line: number): Link | null {
  // In tables the pipe is escaped: [[Note\|alias]].
  const text = inner.replace(/\\\|/g, '|');
  const bar = text.indexOf('|');
  const destination = bar === -1 ? text : text.slice(0, bar);
  const display = bar === -1 ? null : text.slice(bar + 1).trim() || null;
  const { path, subpath } = splitSubpath(destination.trim());
  if (path === '' && subpath === null) return null;
  return { kind, target: path, subpath, display, line };
}

export function splitSubpath(destination: string): { path: string; subpath: string | null } {
  const hash = destination.indexOf('#');
  if (hash === -1) return { path: destination.trim(), subpath: null };
  const subpath = destination.slice(hash + 1).trim();
  return { path: destination.slice(0, hash).trim(), subpath: subpath === '' ? null : subpath };
}

export function decodeLinkPath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a stray `%` — keep the text as written
  }
}

/** The lower-cased file name a link can match, used to find links affected by path changes. */
export function linkTargetName(target: string): string {
  const name = baseName(target.normalize('NFC').toLowerCase());
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** The same key for a file path: `Projects/Atlas.md` → `atlas`, `img/a.png` → `a.png`. */
export function fileTargetName(path: string): string {
  return linkTargetName(path);
}

export interface ResolvedLink {
  path: string;
  kind: 'note' | 'attachment';
}

/**
 * Resolves link paths against a set of vault files, following Obsidian's observed rules:
 * matching is case-insensitive; a bare name matches by file name, preferring the linking note's
 * folder, then the shortest path; `a/b` is tried from the vault root, then relative to the note,
 * then as a path suffix; markdown links are tried relative to the note, then from the root.
 * `.md` may be omitted. Ties break on exact case, then path order, so results are deterministic.
 */
export class LinkResolver {
  private readonly byPath = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      push(this.byPath, foldPath(path), path);
      push(this.byName, foldPath(baseName(path)), path);
    }
    for (const list of this.byName.values()) list.sort(comparePaths);
  }

  resolve(link: Pick<Link, 'kind' | 'target'>, sourcePath: string): ResolvedLink | null {
    if (link.target === '') return { path: sourcePath, kind: 'note' };
    const target = link.target.normalize('NFC').replace(/^\/+/, '');
    const rootOnly = link.target.startsWith('/');
    const folder = folderOf(sourcePath);
    const found = link.kind === 'markdown' || rootOnly ? (this.relative(target, rootOnly ? '' : folder) ?? this.exact(target) ?? (rootOnly ? null : this.byLinkpath(target, folder))) : this.byLinkpath(target, folder);
    if (found === null) return null;
    return { path: found, kind: isNotePath(found) ? 'note' : 'attachment' };
  }

  private byLinkpath(target: string, folder: string): string | null {
    if (!target.includes('/')) return this.byFileName(target, folder);
    return this.exact(target) ?? this.relative(target, folder) ?? this.bySuffix(target);
  }

  private byFileName(target: string, folder: string): string | null {
    for (const name of withMd(target)) {
      const candidates = this.byName.get(foldPath(name));
      if (!candidates) continue;
      const folded = foldPath(folder);
      const local = candidates.filter((path) => foldPath(folderOf(path)) === folded);
      return pickExactCase(local.length > 0 ? local : candidates, name);
    }
    return null;
  }

  private exact(target: string): string | null {
    for (const path of withMd(target)) {
      const hit = this.byPath.get(foldPath(path));
      if (hit) return pickExactCase(hit, path);
    }
    return null;
  }

  private relative(target: string, folder: string): string | null {
    const joined = joinVaultPath(folder, target);
    return joined === null || joined === '' ? null : this.exact(joined);
  }

  private bySuffix(target: string): string | null {
    for (const path of withMd(target)) {
      const suffix = '/' + foldPath(path);
      const candidates = this.byName.get(foldPath(baseName(path)));
      const hits = candidates?.filter((candidate) => ('/' + foldPath(candidate)).endsWith(suffix));
      if (hits && hits.length > 0) return pickExactCase(hits, path);
    }
    return null;
  }
}

function withMd(target: string): string[] {
  return /\.md$/i.test(target) ? [target] : [`${target}.md`, target];
}

/** Shortest path first, then code-point order: the tie-break Obsidian's choice approximates. */
function comparePaths(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The first candidate wins; among notes that differ from it only by case, the one spelled like
 * the link wins (Linux vaults can hold both `Note.md` and `note.md`).
 */
function pickExactCase(candidates: readonly string[], wanted: string): string | null {
  const first = candidates[0];
  if (first === undefined) return null;
  const folded = foldPath(first);
  const suffix = wanted.normalize('NFC');
  return candidates.find((path) => foldPath(path) === folded && path.normalize('NFC').endsWith(suffix)) ?? first;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
