/**
 * Filters run before ranking, so `limit` means the best N inside the filter. Pure: a filter
 * spec and a note's metadata in, a verdict out.
 */

export interface NoteMeta {
  path: string;
  title: string;
  /** Lower-cased folder segments of the path. */
  folders: string[];
  tags: string[];
  type: string | null;
  mtimeMs: number;
}

export interface SearchFilters {
  /** Folder paths; a note matches when these segments appear, in order, anywhere in its folder path (case-insensitive). */
  folders?: readonly string[];
  excludeFolders?: readonly string[];
  /** Tags; `project` also matches `project/atlas`. */
  tags?: readonly string[];
  /** `any` (default): one of the tags; `all`: every one. */
  tagMode?: 'any' | 'all';
  /** Frontmatter `type`/`kind`, case-insensitive. */
  types?: readonly string[];
  /** Inclusive bounds on the note's modification time, in ms since the epoch. */
  modifiedAfter?: number;
  modifiedBefore?: number;
}

/** Why a note is hidden (`folder`, `tags`, …), or null when it passes. */
export type FilterVerdict = null | 'folder' | 'excluded_folder' | 'tags' | 'type' | 'modified' | 'query_excluded';

export interface CompiledFilter {
  active: boolean;
  test(meta: NoteMeta): FilterVerdict;
}

export function compileFilter(filters: SearchFilters): CompiledFilter {
  const folders = (filters.folders ?? []).map(splitFolder).filter((segments) => segments.length > 0);
  const excluded = (filters.excludeFolders ?? []).map(splitFolder).filter((segments) => segments.length > 0);
  const tags = (filters.tags ?? []).map(normalTag).filter((tag) => tag !== '');
  const types = new Set((filters.types ?? []).map((type) => type.trim().toLowerCase()).filter((type) => type !== ''));
  const after = filters.modifiedAfter;
  const before = filters.modifiedBefore;
  const active = folders.length > 0 || excluded.length > 0 || tags.length > 0 || types.size > 0 || after !== undefined || before !== undefined;
  return {
    active,
    test(meta) {
      if (folders.length > 0 && !folders.some((segments) => containsRun(meta.folders, segments))) return 'folder';
      if (excluded.some((segments) => containsRun(meta.folders, segments))) return 'excluded_folder';
      if (tags.length > 0) {
        const ok = filters.tagMode === 'all' ? tags.every((tag) => hasTag(meta, tag)) : tags.some((tag) => hasTag(meta, tag));
        if (!ok) return 'tags';
      }
      if (types.size > 0 && (meta.type === null || !types.has(meta.type.toLowerCase()))) return 'type';
      if (after !== undefined && meta.mtimeMs < after) return 'modified';
      if (before !== undefined && meta.mtimeMs > before) return 'modified';
      return null;
    },
  };
}

/**
 * `filter` that also hides `notes` — the notes holding a word the query excludes (`-paris`). The
 * verdict `query_excluded` is never reported as a better match hidden by the filters: the
 * query asked for them to go.
 */
export function excludingNotes(filter: CompiledFilter, notes: ReadonlySet<NoteMeta>): CompiledFilter {
  if (notes.size === 0) return filter;
  return { active: true, test: (meta) => (notes.has(meta) ? 'query_excluded' : filter.test(meta)) };
}

/** A tag as filters compare it: no `#`, no trailing `/`, lower case. */
function normalTag(tag: string): string {
  return tag.trim().replace(/^#+/, '').replace(/\/+$/, '').toLowerCase();
}

function hasTag(meta: NoteMeta, wanted: string): boolean {
  return meta.tags.some((tag) => tag === wanted || tag.startsWith(`${wanted}/`));
}

/** An operator a query wrote (`tag:travel`; `negated` for `-tag:travel`), read by `phrases.ts`. */
export interface QueryScope {
  key: 'tag' | 'path' | 'file';
  value: string;
  negated: boolean;
}

/**
 * `filter` narrowed by the operators a query wrote (`tag:travel`, `path:Daily`, `file:roteiro`,
 * as in Obsidian's search): a note must match every one, and none written with a `-`. `tag:` is
 * a tag filter (`project` also matches `project/atlas`); `path:` a case-insensitive substring of
 * the note's path, `file:` of its file name. A note an operator hides is reported like one a
 * tag or folder filter hides; one a `-` operator hides, like an excluded word (never).
 */
export function scopedBy(filter: CompiledFilter, scopes: readonly QueryScope[]): CompiledFilter {
  if (scopes.length === 0) return filter;
  const tests = scopes.map(({ key, value, negated }) => {
    const wanted = key === 'tag' ? normalTag(value) : value.normalize('NFC').toLowerCase();
    const holds = (meta: NoteMeta): boolean => {
      if (key === 'tag') return hasTag(meta, wanted);
      const path = meta.path.normalize('NFC').toLowerCase();
      return (key === 'path' ? path : path.slice(path.lastIndexOf('/') + 1)).includes(wanted);
    };
    const verdict: Exclude<FilterVerdict, null> = negated ? 'query_excluded' : key === 'tag' ? 'tags' : 'folder';
    return { holds, negated, verdict };
  });
  return {
    active: true,
    test(meta) {
      for (const { holds, negated, verdict } of tests) if (holds(meta) === negated) return verdict;
      return filter.test(meta);
    },
  };
}

export function folderSegments(path: string): string[] {
  const parts = path.normalize('NFC').toLowerCase().split('/');
  parts.pop();
  return parts;
}

function splitFolder(folder: string): string[] {
  return folder
    .normalize('NFC')
    .toLowerCase()
    .split('/')
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '' && segment !== '.');
}

/** True when `needle` occurs as a contiguous run of whole segments in `haystack`. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** A time of day after an ISO date's `T`: `09:30`, `09:30:15`, `09:30:15.250`, with an optional `Z` or `±hh:mm`. */
const ISO_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/i;

/**
 * A date bound as a filter takes it: a calendar date `YYYY-MM-DD` is the start of that day (UTC)
 * for a lower bound and its last millisecond for an upper one; an ISO date-time
 * (`2026-03-14T09:30:00Z`; without a zone, local time) is that moment. Null for anything else —
 * a day the calendar lacks (`2026-02-30`), a bare number, words ("March 5") — rather than the
 * guess `Date.parse` would make.
 */
export function parseDateBound(value: string, { endOfDay }: { endOfDay: boolean }): number | null {
  // `T` or a space between date and time, as frontmatter writes it (`2026-03-14 09:30`).
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](.+))?$/i.exec(value.trim());
  if (!match) return null;
  const day = match[1]!;
  const time = match[2];
  const start = Date.parse(`${day}T00:00:00.000Z`);
  // `Date.parse` rolls 2026-02-30 over to March 2; a real day reads back as itself.
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day) return null;
  if (time === undefined) return endOfDay ? start + 86_400_000 - 1 : start;
  if (!ISO_TIME.test(time)) return null;
  const ms = Date.parse(`${day}T${time.toUpperCase()}`);
  return Number.isNaN(ms) ? null : ms;
}
