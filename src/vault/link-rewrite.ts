/**
 * Keeping links intact when a note moves: pure text in, text out. Every link form Obsidian
 * resolves is considered — wikilinks and embeds (bare, path-qualified, with or without `.md`,
 * any case), markdown links (relative or from the root, URL-encoded or in `<…>`), and wikilinks
 * in frontmatter values. A link is rewritten only when the move would change what it resolves
 * to; a bare `[[Name]]` that still finds the note after the move is left exactly as written.
 */
import { LinkResolver, MARKDOWN_LINK, SCHEME, WIKILINK, decodeLinkPath, parseWikilink, splitSubpath, type LinkKind } from './links.js';
import { codeLineMask, maskInlineCodeLines } from './markdown.js';
import { foldPath, folderOf, joinVaultPath } from './paths.js';

export interface NoteMove {
  from: string;
  to: string;
}

export interface LinkWorlds {
  /** Resolves links among the vault's files before the move. */
  before: LinkResolver;
  /** Resolves links among the vault's files after the move. */
  after: LinkResolver;
}

/** Builds the before/after resolvers for one move from the vault's file list (notes and attachments). */
export function linkWorlds(files: readonly string[], move: NoteMove): LinkWorlds {
  const from = foldPath(move.from);
  return { before: new LinkResolver(files), after: new LinkResolver(files.map((path) => (foldPath(path) === from ? move.to : path))) };
}

/**
 * Rewrites the links in one note's text so each still points where it pointed before the move.
 * `source` is the note's path before the move (the moved note's own relative links are checked
 * from its new folder). Returns the new text and how many links changed.
 */
export function rewriteLinksForMove(text: string, source: string, move: NoteMove, worlds: LinkWorlds): { text: string; count: number } {
  const movedSelf = foldPath(source) === foldPath(move.from);
  const sourceAfter = movedSelf ? move.to : source;
  const lines = text.split('\n');
  const frontEnd = frontmatterEnd(lines);
  const code = codeLineMask(lines, frontEnd);
  // The same code spans the parser skips (`parseNote`), those running over a line end too.
  const maskedLines = maskInlineCodeLines(lines, code, frontEnd);
  let count = 0;
  const target = (written: string, kind: LinkKind): string | null => {
    const link = { kind, target: written };
    const before = worlds.before.resolve(link, source);
    if (before === null) return null;
    const expected = foldPath(before.path) === foldPath(move.from) ? move.to : before.path;
    const after = worlds.after.resolve(link, sourceAfter);
    if (after !== null && foldPath(after.path) === foldPath(expected)) return null;
    return expected;
  };
  for (let i = 0; i < lines.length; i++) {
    if (code[i]) continue;
    const raw = lines[i]!;
    if (!raw.includes('[[') && !raw.includes('](')) continue;
    const inFrontmatter = i < frontEnd;
    const masked = inFrontmatter ? raw : maskedLines[i]!;
    const edits: { start: number; end: number; text: string }[] = [];
    if (masked.includes('[[')) {
      for (const match of masked.matchAll(WIKILINK)) {
        const written = raw.slice(match.index + match[1]!.length + 2, match.index + match[0].length - 2);
        const quote = inFrontmatter ? quoteAt(raw, match.index) : null;
        const inner = quote === "'" ? written.replace(/''/g, "'") : quote === '"' ? written.replace(/\\(["\\])/g, '$1') : written;
        const link = parseWikilink(inner, match[1] === '!' ? 'embed' : 'wikilink', i + 1);
        if (!link || link.target === '') continue;
        const expected = target(link.target, link.kind);
        if (expected === null) continue;
        const rewritten = `${match[1]}[[${wikiDestination(link.target, expected)}${wikiTail(inner)}]]`;
        edits.push({ start: match.index, end: match.index + match[0].length, text: yamlEscape(rewritten, quote) });
      }
    }
    if (!inFrontmatter && masked.includes('](')) {
      for (const match of masked.matchAll(MARKDOWN_LINK)) {
        const written = match[3]!;
        const angled = written.startsWith('<');
        const bare = angled ? written.slice(1, -1) : written;
        if (SCHEME.test(bare)) continue;
        const { path, subpath } = splitSubpath(decodeLinkPath(bare));
        if (path === '') continue;
        const expected = target(path, 'markdown');
        if (expected === null) continue;
        // Written relative to the linking note, it stays relative; written from the root, it stays so.
        const joined = joinVaultPath(folderOf(source), path);
        const relative = !path.startsWith('/') && joined !== null && worlds.before.resolve({ kind: 'markdown', target: `/${joined}` }, source) !== null;
        const destination = markdownDestination(path, expected, relative ? folderOf(sourceAfter) : null);
        const tail = subpath === null ? '' : bare.slice(bare.indexOf('#'));
        const encoded = angled ? `<${destination}${tail}>` : `${encodeLinkPath(destination)}${tail}`;
        const at = match.index + match[0].indexOf(written, match[1]!.length + match[2]!.length + 2);
        edits.push({ start: at, end: at + written.length, text: encoded });
      }
    }
    if (edits.length === 0) continue;
    edits.sort((a, b) => b.start - a.start);
    let line = raw;
    for (const edit of edits) line = line.slice(0, edit.start) + edit.text + line.slice(edit.end);
    lines[i] = line;
    count += edits.length;
  }
  return { text: count === 0 ? text : lines.join('\n'), count };
}

/** The YAML quote a frontmatter line is inside at `index` (`'`, `"`), or null. */
function quoteAt(line: string, index: number): "'" | '"' | null {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < index; i++) {
    const char = line[i];
    if (quote === null) {
      if (char === "'" || char === '"') quote = char;
    } else if (quote === "'") {
      if (char === "'") {
        if (line[i + 1] === "'") i++;
        else quote = null;
      }
    } else if (char === '\\') {
      i++;
    } else if (char === '"') {
      quote = null;
    }
  }
  return quote;
}

/** Text placed inside a quoted YAML scalar, escaped for that quote style. */
function yamlEscape(text: string, quote: "'" | '"' | null): string {
  if (quote === "'") return text.replace(/'/g, "''");
  if (quote === '"') return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return text;
}

/** Index of the first line after the frontmatter block (0 when there is none). */
function frontmatterEnd(lines: readonly string[]): number {
  if (lines[0]?.replace(/\r$/, '') !== '---') return 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line === '---' || line === '...') return i + 1;
  }
  return 0;
}

/** `#subpath|alias` exactly as written after the link path. */
function wikiTail(inner: string): string {
  const bar = inner.search(/\\?\|/);
  const hash = inner.indexOf('#');
  const cut = hash !== -1 && (bar === -1 || hash < bar) ? hash : bar;
  return cut === -1 ? '' : inner.slice(cut);
}

/** The new wikilink path: the full vault path, with `.md` only if the link had it. */
function wikiDestination(written: string, expected: string): string {
  return /\.md$/i.test(written) ? expected : expected.replace(/\.md$/i, '');
}

/** The new markdown link path: relative to the linking note's folder, or else from the root. */
function markdownDestination(written: string, expected: string, sourceFolder: string | null): string {
  const withExtension = /\.md$/i.test(written) || !/\.md$/i.test(expected) ? expected : expected.replace(/\.md$/i, '');
  if (sourceFolder === null) return written.startsWith('/') ? `/${withExtension}` : withExtension;
  return relativePath(sourceFolder, withExtension);
}

/** Percent-encodes what a bare markdown link destination cannot hold (spaces, parentheses, `%`, `#`). */
function encodeLinkPath(path: string): string {
  return path.replace(/[%\s()#<>]/g, (char) => encodeURIComponent(char));
}

function relativePath(folder: string, path: string): string {
  const from = folder === '' ? [] : folder.split('/');
  const to = path.split('/');
  let shared = 0;
  while (shared < from.length && shared < to.length - 1 && from[shared] === to[shared]) shared++;
  return [...from.slice(shared).map(() => '..'), ...to.slice(shared)].join('/');
}
