/**
 * Golden query files (YAML or JSON), in the predecessor's schema: a list of
 * `{id, query, expect: [paths], accept?: [paths], tags?, folder?, category?, note?}`, and
 * `today?` (YYYY-MM-DD): the day the query is asked, for its relative dates ("this year"), and
 * `also?: [strings]`: rephrasings an agent would pass as `alternatives` (at most four).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EngramError } from '../errors.js';
import { dayOfValue, MAX_ALTERNATIVES } from '../search/index.js';

export interface GoldenQuery {
  id: string;
  query: string;
  expect: string[];
  accept: string[];
  tags: string[];
  folder: string | null;
  category: string;
  note: string | null;
  /** The day the query is asked (YYYY-MM-DD): "this year" in it means that day's year, whenever the set is run. */
  today?: string;
  /** Rephrasings an agent would pass as `alternatives`, searched with the query and fused with it. */
  also?: string[];
}

export function loadGolden(file: string): GoldenQuery[] {
  let raw: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    raw = file.endsWith('.json') ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new EngramError('INVALID_INPUT', `cannot read the golden file ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  return validateGolden(raw, file);
}

export function validateGolden(raw: unknown, file: string): GoldenQuery[] {
  if (!Array.isArray(raw)) throw new EngramError('INVALID_INPUT', `${file} must be a list of queries`);
  const seen = new Set<string>();
  return raw.map((item, i): GoldenQuery => {
    const where = `${file} item ${i + 1}`;
    if (typeof item !== 'object' || item === null) throw new EngramError('INVALID_INPUT', `${where} is not a mapping`);
    const entry = item as Record<string, unknown>;
    const id = typeof entry.id === 'string' && entry.id.trim() !== '' ? entry.id : null;
    if (id === null) throw new EngramError('INVALID_INPUT', `${where} has no id`);
    if (seen.has(id)) throw new EngramError('INVALID_INPUT', `${file}: duplicate id "${id}"`);
    seen.add(id);
    if (typeof entry.query !== 'string') throw new EngramError('INVALID_INPUT', `${file}: "${id}" has no query`);
    const expect = pathList(entry.expect, `${file}: "${id}" expect`);
    if (expect.length === 0) throw new EngramError('INVALID_INPUT', `${file}: "${id}" has an empty expect list`);
    const today = entry.today;
    if (today !== undefined && (typeof today !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(today) || dayOfValue(today) === -1)) {
      throw new EngramError('INVALID_INPUT', `${file}: "${id}" today must be a calendar day like 2026-06-30`);
    }
    const also = alsoList(entry.also, `${file}: "${id}" also`);
    return {
      id,
      query: entry.query,
      expect,
      accept: pathList(entry.accept, `${file}: "${id}" accept`),
      tags: stringList(entry.tags),
      folder: typeof entry.folder === 'string' && entry.folder.trim() !== '' ? entry.folder : null,
      category: typeof entry.category === 'string' && entry.category !== '' ? entry.category : 'uncategorized',
      note: typeof entry.note === 'string' ? entry.note : null,
      ...(today === undefined ? {} : { today }),
      ...(also.length === 0 ? {} : { also }),
    };
  });
}

/** A query's rephrasings: strings, at most as many as a search takes. */
export function alsoList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new EngramError('INVALID_INPUT', `${where} must be a list of strings`);
  if (value.length > MAX_ALTERNATIVES) throw new EngramError('INVALID_INPUT', `${where} has ${value.length} rephrasings; a search takes at most ${MAX_ALTERNATIVES}`);
  return value as string[];
}

function pathList(value: unknown, where: string): string[] {
  const paths = stringList(value);
  for (const path of paths) {
    if (path.startsWith('/') || /^[a-z]:/i.test(path) || path.split('/').includes('..')) {
      throw new EngramError('INVALID_INPUT', `${where}: "${path}" must be a vault-relative path`);
    }
  }
  return paths;
}

function stringList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
}
