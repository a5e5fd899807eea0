/**
 * The one gate for note paths that come from outside (MCP tool arguments, CLI input). Every tool
 * that takes a note path resolves it here before it reads anything, so the rules live in one
 * place: a relative path to a `.md` note, inside the vault, outside every dot-folder, on disk
 * and not reached through a symlink that leads elsewhere.
 *
 * Two halves. `parseNoteInput` is pure: it refuses what no vault path can look like (control
 * characters, absolute and Windows paths, `..`, dot segments), including what percent-decoding
 * would reveal. The disk half uses only realpath and (l)stat, never a read or a write: the real
 * location decides, because a name that looks innocent may be a symlink to `~/.ssh` or into
 * `.obsidian/plugins/…/data.json`, where sync plugins keep tokens.
 *
 * The check is a moment in time: callers should open the returned `absolute` (already free of
 * symlinks) right away rather than re-joining the input.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { systemErrorCode } from '../errors.js';
import { baseName, foldPath, hasDotSegment, isNotePath, pathKey } from './paths.js';

export const NOTE_PATH_DEFAULTS = {
  /** Longest input accepted, in UTF-16 code units; longer inputs are refused before any work. */
  maxPathLength: 1024,
  /** Layers of percent-encoding peeled to look for hidden `..` or dot segments (`%25252e` is three). */
  maxDecodeDepth: 4,
  /** How many candidates an "ambiguous" refusal names before saying "and N more". */
  maxCandidatesNamed: 5,
} as const;

export interface NotePathOptions {
  /**
   * Vault-relative paths of the indexed notes (original spelling). Used to resolve case and
   * Unicode-normalization variants to the real note, and to refuse paths that are not notes:
   * when given, the real note must be one of them. Without it, only the exact spelling and its
   * NFC/NFD forms are tried (finding case variants would need a directory listing).
   */
  known?: Iterable<string>;
  /**
   * Allow a path that does not exist yet (for a future write tool): still validated, not
   * required to exist; its existing folders must be real folders inside the vault. Default false.
   */
  allowMissing?: boolean;
  /**
   * Also accept a JSON Canvas file (`.canvas`): the maps Engram itself writes. Off for every
   * path an agent gives, so the tools still serve and write notes only.
   */
  canvas?: boolean;
}

export type NotePathResult =
  | { ok: true; /** Vault-relative, `/`-separated, the real note's spelling. */ path: string; /** Real absolute path, free of symlinks. */ absolute: string }
  | { ok: false; /** One plain sentence that says what to do next; never file contents. */ reason: string };

type Refusal = { ok: false; reason: string };

const RELATIVE = 'pass the note\'s path relative to the vault, such as "Projects/Atlas.md"';

type Problem = 'control' | 'unc' | 'drive' | 'url' | 'absolute' | 'stream' | 'traversal' | 'hidden';

/** Gravest first; the order in which `findProblem` checks a layer. */
const SEVERITY: readonly Problem[] = ['control', 'unc', 'drive', 'url', 'absolute', 'stream', 'traversal', 'hidden'];

const PROBLEMS: Record<Problem, { found: string; next: string }> = {
  control: { found: 'contains a control character (such as a NUL byte or a line break)', next: 'remove it and pass the path as plain text' },
  unc: { found: 'is a network (UNC) path', next: RELATIVE },
  drive: { found: 'starts with a Windows drive letter', next: RELATIVE },
  url: { found: 'is a URL', next: RELATIVE },
  absolute: { found: 'is absolute', next: RELATIVE },
  stream: { found: 'contains ":" (an alternate data stream on Windows)', next: "pass the note's plain path" },
  traversal: { found: 'contains a ".." segment', next: 'pass the path from the vault root without ".."' },
  hidden: {
    found: 'goes through a name that starts with "." (hidden files and folders such as .obsidian, .trash and .git are not served)',
    next: 'pick a note outside them',
  },
};

/**
 * C0/C1 controls, line and paragraph separators, and bidi overrides: none belongs in a note
 * name, and the last can make a path display as something it is not (`\u202Egpj.md`).
 */
export const FORBIDDEN_CHARS = /[\p{Cc}\u2028\u2029\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;

/**
 * The syntax half, pure. Returns the path's segments (`/`-separated, `.` and empty segments
 * dropped) and its spellings to try: the literal first, then the percent-decoded form. A real
 * name may contain `%` (`100% done.md`), so decoding never replaces the literal; it only adds a
 * fallback and exposes what an encoded path would become if some layer decoded it later.
 */
function parseNoteInput(input: unknown): { ok: true; spellings: string[][] } | Refusal {
  if (typeof input !== 'string') {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return refuse(`A note path must be a string, not ${got}; ${RELATIVE}.`);
  }
  if (input.trim() === '') return refuse(`The note path is empty; ${RELATIVE}.`);
  if (input.length > NOTE_PATH_DEFAULTS.maxPathLength) {
    return refuse(`The note path is ${input.length} characters long, over the limit of ${NOTE_PATH_DEFAULTS.maxPathLength}; pass a shorter path relative to the vault.`);
  }
  const layers = decodeLayers(input);
  // The gravest problem of any layer is named: `..%2fx.md` is traversal more than a dot name.
  let worst: { problem: Problem; depth: number } | null = null;
  for (const [depth, layer] of layers.entries()) {
    const problem = findProblem(layer);
    if (problem !== null && (worst === null || SEVERITY.indexOf(problem) < SEVERITY.indexOf(worst.problem))) worst = { problem, depth };
  }
  if (worst !== null) {
    const { found, next } = PROBLEMS[worst.problem];
    return refuse(`The note path${worst.depth > 0 ? ', once percent-decoded,' : ''} ${found}; ${next}.`);
  }
  const spellings: string[][] = [];
  const [literal, decoded] = [segmentsOf(layers[0]!), layers[1] === undefined ? [] : segmentsOf(layers[1])];
  if (literal.length === 0) return refuse(`The note path names the vault folder itself; ${RELATIVE}.`);
  spellings.push(literal);
  if (decoded.length > 0 && decoded.join('/') !== literal.join('/')) spellings.push(decoded);
  return { ok: true, spellings };
}

/** What makes one (possibly decoded) layer unsafe, or null. Backslashes count as separators. */
function findProblem(layer: string): Problem | null {
  if (FORBIDDEN_CHARS.test(layer)) return 'control';
  const path = layer.replace(/\\/g, '/');
  if (path.startsWith('//')) return 'unc';
  if (/^[A-Za-z]:/.test(path)) return 'drive';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)) return 'url';
  if (path.startsWith('/')) return 'absolute';
  // `Note.md:secret.md` names a hidden stream of `Note.md` on NTFS.
  if (sep === '\\' && path.includes(':')) return 'stream';
  const segments = path.split('/');
  if (segments.includes('..')) return 'traversal';
  if (segments.some((segment) => segment.startsWith('.') && segment !== '.')) return 'hidden';
  return null;
}

/** The input and each distinct percent-decoded layer below it, literal first. */
function decodeLayers(input: string): string[] {
  const layers = [input];
  for (let depth = 0; depth < NOTE_PATH_DEFAULTS.maxDecodeDepth; depth++) {
    const next = percentDecode(layers[layers.length - 1]!);
    if (next === layers[layers.length - 1]) break;
    layers.push(next);
  }
  return layers;
}

/**
 * Tolerant percent-decoding: only well-formed `%XX` runs are decoded, so `100% done` survives.
 * Invalid UTF-8 (including overlong `%c0%ae` for ".") becomes U+FFFD, never a dot or a slash.
 */
function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

function segmentsOf(layer: string): string[] {
  return layer
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
}

/** Checks `input` and finds the note it names in the vault at `vaultRoot` (a real path). */
export function resolveNotePath(vaultRoot: string, input: unknown, options: NotePathOptions = {}): NotePathResult {
  const parsed = parseNoteInput(input);
  if (!parsed.ok) return parsed;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(vaultRoot);
  } catch {
    return refuse('The vault folder cannot be found; check the configured vault path.');
  }
  const known = options.known === undefined ? null : indexKnown(options.known);
  const allowMissing = options.allowMissing ?? false;

  let firstMissing: { spelled: string; asked: string; extended: boolean; hit: DiskHit & { kind: 'missing' }; indexed: boolean } | null = null;
  for (const segments of parsed.spellings) {
    const asked = segments.join('/');
    // `Folder/Note` means the note `Folder/Note.md`; a missing extension is never added to a new path.
    const extended = !isNotePath(asked) && !(options.canvas === true && isCanvasPath(asked));
    const spelled = extended ? `${asked}.md` : asked;
    const match = known === null ? null : matchKnown(known, spelled);
    if (match !== null && match.kind === 'ambiguous') return refuse(ambiguousReason(asked, match.candidates));
    const target = match?.kind === 'one' ? match.path : spelled;
    const variants = known === null ? unique([target, target.normalize('NFC'), target.normalize('NFD')]) : [target];
    for (const variant of variants) {
      const hit = inspectOnDisk(realRoot, variant.split('/'), variant);
      if (hit.kind === 'refused') return refuse(hit.reason);
      if (hit.kind === 'found') return acceptFound(hit, variant, known, options.canvas === true);
      firstMissing ??= { spelled: variant, asked, extended, hit, indexed: match?.kind === 'one' };
    }
  }
  if (firstMissing === null) return refuse(`The note path names nothing that can be checked; ${RELATIVE}.`);
  const { spelled, asked, extended, hit, indexed } = firstMissing;
  if (indexed) return refuse(`"${spelled}" is indexed but no longer on disk; re-index the vault or search for the note's new path.`);
  // An existing note was asked for: also as a link or a name would find it (`[[BM25]]`, `BM25`).
  if (known !== null && !allowMissing) {
    const linked = resolveAsLink(vaultRoot, input as string, known, options);
    if (linked !== null) return linked;
    if (extended && !/\.[A-Za-z0-9]{1,8}$/.test(asked)) return refuse(`"${asked}" is not a note path, and no indexed note is named "${baseName(asked)}"; ${RELATIVE} (search the vault to find it).`);
  }
  if (extended) return refuse(notNoteReason(asked));
  if (!allowMissing) return refuse(`There is no note at "${asked}"; check the spelling, or search the vault to find the note's path.`);
  if (hit.blockedBy !== null) return refuse(`"${asked}" cannot be created because "${hit.blockedBy}" is a file, not a folder; pick another path.`);
  return { ok: true, path: hit.path, absolute: hit.absolute };
}

/**
 * The note `input` names the way an Obsidian link would, when it is not a path as written: with
 * the white space around it trimmed (`Notes/A.md `), the inside of a wikilink (`[[A|alias]]`),
 * the note of a heading or block (`A.md#Plan`: refused, naming the note's path, since tools take
 * notes), and a name or the end of a path (`BM25`, `Atlas/Overview`) that exactly one indexed
 * note has. Every reading goes through the whole gate again. Null: no other reading finds one.
 */
function resolveAsLink(vaultRoot: string, input: string, known: KnownIndex, options: NotePathOptions): NotePathResult | null {
  let target = input.trim();
  const wikilink = /^!?\[\[([^\]]*)\]\]$/.exec(target);
  if (wikilink) target = wikilink[1]!.split('|')[0]!;
  // Obsidian allows no `#` in a file name: what follows one is a heading or a block.
  const hash = target.indexOf('#');
  const heading = hash === -1 ? null : target.slice(hash);
  if (hash !== -1) target = target.slice(0, hash);
  target = target.trim();
  if (target === '') return null;
  if (target !== input) {
    const found = resolveNotePath(vaultRoot, target, options);
    if (!found.ok || heading === null) return found;
    return refuse(`"${input.trim()}" points at a heading or block inside a note; pass the note's path alone, "${found.path}" (read only part of it by its lines: a search hit gives them).`);
  }
  const named = notesNamed(known, target);
  if (named.length === 1) return resolveNotePath(vaultRoot, named[0]!, options);
  if (named.length > 1) return refuse(`"${target}" is the name of several notes (${namedList(named)}); pass the vault-relative path of the one you mean.`);
  return null;
}

/** Indexed notes whose name is `target` (`BM25`, `BM25.md`), or whose path ends with it (`Atlas/Overview`), case-insensitively. */
function notesNamed(known: KnownIndex, target: string): string[] {
  const wanted = foldPath(isNotePath(target) ? target : `${target}.md`);
  const hasFolder = wanted.includes('/');
  const named: string[] = [];
  for (const spellings of known.byKey.values()) {
    for (const path of spellings) {
      const folded = foldPath(path);
      if (hasFolder ? `/${folded}`.endsWith(`/${wanted}`) : baseName(folded) === wanted) named.push(path);
    }
  }
  return named.sort();
}

function namedList(paths: readonly string[]): string {
  const named = paths
    .slice(0, NOTE_PATH_DEFAULTS.maxCandidatesNamed)
    .map((path) => `"${path}"`)
    .join(', ');
  return paths.length > NOTE_PATH_DEFAULTS.maxCandidatesNamed ? `${named} and ${paths.length - NOTE_PATH_DEFAULTS.maxCandidatesNamed} more` : named;
}

/** A JSON Canvas file's path. */
export function isCanvasPath(path: string): boolean {
  return /\.canvas$/i.test(path);
}

function acceptFound(hit: DiskHit & { kind: 'found' }, asked: string, known: KnownIndex | null, canvas = false): NotePathResult {
  if (!hit.isFile) {
    return refuse(hit.isDirectory ? `"${asked}" is a folder, not a note; pass the path of a .md file inside it.` : `"${asked}" is not a regular file; pass the path of a markdown note.`);
  }
  // A symlink named `x.md` may lead to `image.png`: the real file decides.
  if (canvas && isCanvasPath(hit.path)) return { ok: true, path: hit.path, absolute: hit.absolute };
  if (!isNotePath(hit.path)) return refuse(`"${asked}" leads to a file that is not a note (only .md files are served); pass the path of a markdown note.`);
  if (known === null) return { ok: true, path: hit.path, absolute: hit.absolute };
  const spellings = known.byKey.get(pathKey(hit.path)) ?? [];
  const path = spellings.includes(hit.path) ? hit.path : spellings.length === 1 ? spellings[0]! : null;
  if (path === null) {
    return refuse(`"${asked}" exists but is not an indexed note (it may be in an excluded folder or not indexed yet); re-index the vault or pick an indexed note.`);
  }
  return { ok: true, path, absolute: hit.absolute };
}

type DiskHit = { kind: 'found'; path: string; absolute: string; isFile: boolean; isDirectory: boolean } | { kind: 'missing'; path: string; absolute: string; blockedBy: string | null } | { kind: 'refused'; reason: string };

/**
 * Where `segments` really lead. A missing path is still checked folder by folder, so that an
 * answer never depends on what exists outside the vault (`Link/x.md` with `Link` pointing out is
 * refused whether or not `x.md` exists there) and a new note is never created through a symlink.
 */
function inspectOnDisk(realRoot: string, segments: string[], asked: string): DiskHit {
  // Another writer may create or remove the note (or its folder) between two looks: the answer
  // is then taken again, so a note appearing is never mistaken for a broken symlink.
  for (let attempt = 1; ; attempt++) {
    const hit = inspectOnce(realRoot, segments, asked);
    if (hit.kind !== 'changed') return hit;
    if (attempt === 8) return { kind: 'refused', reason: `"${asked}" kept changing on disk while it was checked; try again.` };
  }
}

/** A file or folder that was there (or not) a moment ago and is not (or is) now. */
type Changed = { kind: 'changed' };
const CHANGED: Changed = { kind: 'changed' };

function inspectOnce(realRoot: string, segments: string[], asked: string): DiskHit | Changed {
  const abs = join(realRoot, ...segments);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return inspectMissing(realRoot, segments, asked);
    return { kind: 'refused', reason: diskErrorReason(asked, code) };
  }
  const placed = placeInVault(realRoot, real, asked);
  if (placed.kind === 'refused') return placed;
  let stat;
  try {
    stat = statSync(real);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return CHANGED;
    return { kind: 'refused', reason: diskErrorReason(asked, code) };
  }
  return { kind: 'found', path: placed.path, absolute: real, isFile: stat.isFile(), isDirectory: stat.isDirectory() };
}

function inspectMissing(realRoot: string, segments: string[], asked: string): DiskHit | Changed {
  for (let depth = segments.length; depth >= 1; depth--) {
    const abs = join(realRoot, ...segments.slice(0, depth));
    if (depth < segments.length) {
      let real: string | null = null;
      try {
        real = realpathSync.native(abs);
      } catch (error) {
        const code = systemErrorCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return { kind: 'refused', reason: diskErrorReason(asked, code) };
      }
      if (real !== null) {
        const placed = placeInVault(realRoot, real, asked);
        if (placed.kind === 'refused') return placed;
        let isDirectory: boolean;
        try {
          isDirectory = statSync(real).isDirectory();
        } catch (error) {
          const code = systemErrorCode(error);
          if (code === 'ENOENT' || code === 'ENOTDIR') return CHANGED;
          return { kind: 'refused', reason: diskErrorReason(asked, code) };
        }
        const absolute = join(real, ...segments.slice(depth));
        const path = placed.path === '' ? segments.slice(depth).join('/') : [placed.path, ...segments.slice(depth)].join('/');
        return { kind: 'missing', path, absolute, blockedBy: isDirectory ? null : placed.path };
      }
    }
    // realpath failed but lstat succeeds: a symlink whose target is missing (it may appear
    // later), or a file or folder another writer made since realpath looked.
    try {
      if (!lstatSync(abs).isSymbolicLink()) return CHANGED;
      return { kind: 'refused', reason: `"${asked}" goes through a broken symlink; fix or remove the symlink, or pass another path.` };
    } catch (error) {
      const code = systemErrorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { kind: 'refused', reason: diskErrorReason(asked, code) };
    }
  }
  return { kind: 'missing', path: segments.join('/'), absolute: join(realRoot, ...segments), blockedBy: null };
}

/** The vault-relative `/` form of a real path, or a refusal when it is outside or hidden. */
function placeInVault(realRoot: string, real: string, asked: string): { kind: 'placed'; path: string } | { kind: 'refused'; reason: string } {
  const rel = relative(realRoot, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { kind: 'refused', reason: `"${asked}" leads outside the vault through a symlink; pass a note that lives in the vault itself.` };
  }
  const path = rel.split(sep).join('/');
  if (hasDotSegment(path)) {
    return { kind: 'refused', reason: `"${asked}" leads into a hidden folder (such as .obsidian) through a symlink; pick a note outside hidden folders.` };
  }
  return { kind: 'placed', path };
}

function diskErrorReason(asked: string, code: string | undefined): string {
  if (code === 'ELOOP') return `"${asked}" goes through a symlink loop; fix the symlink or pass another path.`;
  if (code === 'ENAMETOOLONG') return 'A name in the note path is too long for the file system; pass a shorter path.';
  return `"${asked}" cannot be checked (${code ?? 'unknown error'}); check its permissions and try again.`;
}

interface KnownIndex {
  /** NFC key → original spellings (the walker keeps one per key; more only from odd callers). */
  byKey: Map<string, string[]>;
  /** Case-folded NFC → original spellings. */
  byFold: Map<string, string[]>;
}

/** One pass: `known` may be a one-shot iterator. */
function indexKnown(known: Iterable<string>): KnownIndex {
  const byKey = new Map<string, string[]>();
  const byFold = new Map<string, string[]>();
  for (const path of known) {
    const key = pathKey(path);
    pushTo(byKey, key, path);
    pushTo(byFold, key.toLowerCase(), path);
  }
  return { byKey, byFold };
}

type KnownMatch = { kind: 'one'; path: string } | { kind: 'ambiguous'; candidates: string[] } | { kind: 'none' };

/** Exact spelling first, then the same NFC identity, then a unique case-insensitive match. */
function matchKnown(known: KnownIndex, spelled: string): KnownMatch {
  const sameKey = known.byKey.get(pathKey(spelled)) ?? [];
  if (sameKey.includes(spelled)) return { kind: 'one', path: spelled };
  if (sameKey.length === 1) return { kind: 'one', path: sameKey[0]! };
  if (sameKey.length > 1) return { kind: 'ambiguous', candidates: sameKey };
  const sameFold = known.byFold.get(foldPath(spelled)) ?? [];
  if (sameFold.length === 1) return { kind: 'one', path: sameFold[0]! };
  if (sameFold.length > 1) return { kind: 'ambiguous', candidates: sameFold };
  return { kind: 'none' };
}

function ambiguousReason(asked: string, candidates: string[]): string {
  const sorted = [...candidates].sort();
  const named = sorted
    .slice(0, NOTE_PATH_DEFAULTS.maxCandidatesNamed)
    .map((path) => `"${path}"`)
    .join(', ');
  const more = sorted.length > NOTE_PATH_DEFAULTS.maxCandidatesNamed ? ` and ${sorted.length - NOTE_PATH_DEFAULTS.maxCandidatesNamed} more` : '';
  return `"${asked}" matches several notes that differ only in case or Unicode form (${named}${more}); pass the exact spelling of one of them.`;
}

function notNoteReason(asked: string): string {
  return `"${asked}" is not a note (only .md files are served); pass the path of a markdown note.`;
}

function pushTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function refuse(reason: string): Refusal {
  return { ok: false, reason };
}
