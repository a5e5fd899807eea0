/**
 * The note filters `engram search` and `engram ls` share: their options, read into the filters
 * search takes, and the whole-number check both use for `--limit`; `--today`, which `engram
 * search` and `engram eval` share; `engram index --exclude`'s folders.
 */
import { UsageError } from '../errors.js';
import { dayOfValue, parseDateBound, type SearchFilters } from '../search/index.js';
import { excludedFolder, type ExcludedFolderProblem } from '../vault/index.js';
import { numberValue, refuseEmptyValue, shownArg, type OptionSpec, type OptionValue } from './command.js';

export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  folder: { type: 'string', multiple: true, value: 'FOLDER', description: 'only notes under this folder (whole segments, any depth, case-insensitive)' },
  'exclude-folder': { type: 'string', multiple: true, value: 'FOLDER', description: 'leave out notes under this folder' },
  tag: { type: 'string', multiple: true, value: 'TAG', description: 'only notes with this tag (`project` also matches `project/atlas`)' },
  'all-tags': { type: 'boolean', description: 'require every --tag instead of any' },
  type: { type: 'string', multiple: true, value: 'TYPE', description: 'only notes whose frontmatter type (or kind) is this' },
  'modified-after': { type: 'string', value: 'DATE', description: 'only notes modified on or after this date (YYYY-MM-DD or ISO time)' },
  'modified-before': { type: 'string', value: 'DATE', description: 'only notes modified on or before this date' },
};

/** The filters the `FILTER_OPTIONS` given ask for; a value that names nothing is bad usage. */
export function filtersFrom(values: Record<string, unknown>): SearchFilters & { folders: string[]; excludeFolders: string[]; tags: string[]; types: string[] } {
  refuseEmptyFilters(values, ['folder', 'exclude-folder', 'tag', 'type']);
  return {
    folders: (values.folder as string[] | undefined) ?? [],
    excludeFolders: (values['exclude-folder'] as string[] | undefined) ?? [],
    tags: (values.tag as string[] | undefined) ?? [],
    tagMode: values['all-tags'] ? 'all' : 'any',
    types: (values.type as string[] | undefined) ?? [],
    ...dateOption('modifiedAfter', '--modified-after', values['modified-after'] as string | undefined),
    ...dateOption('modifiedBefore', '--modified-before', values['modified-before'] as string | undefined),
  };
}

type FilterOption = 'folder' | 'exclude-folder' | 'tag' | 'type' | 'exclude';

/** What a repeatable filter option names, and an example of it, for the message when a value names nothing; `exclude` is `engram index --exclude`. */
const FILTER_VALUES: Record<FilterOption, OptionValue> = {
  folder: { noun: 'folder', example: 'Projects', empty: namesNoFolder },
  'exclude-folder': { noun: 'folder', example: 'Archive', empty: namesNoFolder },
  tag: { noun: 'tag', example: 'project', empty: (raw) => raw.trim().replace(/^#+/, '').replace(/\/+$/, '') === '' },
  type: { noun: 'type', example: 'meeting', empty: (raw) => raw.trim() === '' },
  exclude: { noun: 'folder', example: 'Archive', empty: namesNoFolder },
};

/** A folder of nothing but `/`, `.` and spaces (`""`, `"/"`): the filters drop it, so it would filter nothing. */
function namesNoFolder(raw: string): boolean {
  return raw.split('/').every((segment) => segment.trim() === '' || segment.trim() === '.');
}

/**
 * Refuses a filter option whose value names nothing (`--tag ""`, `--folder " "`, `--tag "#"`):
 * the filters would drop it without a word and search every note, as if it was never given.
 */
export function refuseEmptyFilters(values: Record<string, unknown>, options: readonly FilterOption[]): void {
  for (const option of options) refuseEmptyValue(option, values[option], FILTER_VALUES[option]);
}

/**
 * `engram index --exclude`'s folders, each read as the walker reads it (`./Archive/` is
 * `Archive`); one that names no folder inside the vault (`""`, `/`, `..`, a drive path) is bad
 * usage: it would leave nothing out without a word.
 */
export function excludeOption(given: unknown): string[] {
  refuseEmptyValue('exclude', given, FILTER_VALUES.exclude);
  return ((given as string[] | undefined) ?? []).map((raw) => {
    const read = excludedFolder(raw);
    if ('folder' in read) return read.folder;
    throw new UsageError(`--exclude ${shownArg(raw)} ${read.problem}: ${EXCLUDE_REMEDY[read.problem]}`);
  });
}

const EXCLUDE_REMEDY: Record<ExcludedFolderProblem, string> = {
  'names no folder': 'give a folder such as --exclude Archive, or leave --exclude out',
  'is outside the vault': 'give a folder inside it, relative to the vault, such as --exclude Archive',
  'is a drive path': 'give a folder relative to the vault, such as --exclude Archive',
};

export function integerOption(name: string, raw: string, min: number, max: number): number {
  const value = numberValue(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not ${shownArg(raw)}`);
  return value;
}

/** An upper bound (`--modified-before`) on a bare date takes the whole day. Only a real calendar date or an ISO date-time is taken. */
function dateOption(key: 'modifiedAfter' | 'modifiedBefore', name: string, raw: string | undefined): Record<string, number> {
  if (raw === undefined) return {};
  const ms = parseDateBound(raw, { endOfDay: key === 'modifiedBefore' });
  if (ms === null) {
    const noSuchDay = /^\d{4}-\d{2}-\d{2}$/.test(raw.trim()) ? ' (there is no such day)' : '';
    throw new UsageError(`${name} must be a date like 2026-03-14 or an ISO date-time like 2026-03-14T09:30:00Z, not ${shownArg(raw)}${noSuchDay}`);
  }
  return { [key]: ms };
}

export const TODAY_OPTION: OptionSpec = {
  type: 'string',
  value: 'DATE',
  description: 'read relative dates in the query ("yesterday", "last week"), spans up to today ("since June 1"), and dates without a year ("in June"), against this day, YYYY-MM-DD (default: today)',
};

/** `--today`: a calendar day, or a usage error. */
export function todayOption(raw: string | undefined): { today?: string } {
  if (raw === undefined) return {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || dayOfValue(raw) === -1) throw new UsageError(`--today must be a calendar day like 2026-03-14, not ${shownArg(raw)}`);
  return { today: raw };
}
