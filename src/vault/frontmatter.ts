/**
 * YAML frontmatter. Parsed with `yaml` (not gray-matter: it turns dates into `Date` objects and
 * caches mutated results). Malformed frontmatter is a warning, never fatal: the note is still
 * indexed without it.
 */
import { parseDocument } from 'yaml';

export type Frontmatter = Record<string, unknown>;

export interface FrontmatterResult {
  /** Parsed mapping, or null when absent or malformed. */
  data: Frontmatter | null;
  /** 1-based inclusive line range of the block including both `---` fences, or null when absent. */
  lines: [number, number] | null;
  /** Index (0-based) of the first body line after the closing fence. */
  bodyStart: number;
  warning: string | null;
}

/**
 * Frontmatter starts on line 1 with `---` and ends at the next `---` (or `...`) line. Without a
 * closing fence there is no frontmatter (Obsidian shows such a file as plain text).
 */
export function readFrontmatter(lines: readonly string[]): FrontmatterResult {
  const none: FrontmatterResult = { data: null, lines: null, bodyStart: 0, warning: null };
  if (lines.length === 0 || stripCr(lines[0] ?? '').trimEnd() !== '---') return none;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = stripCr(lines[i] ?? '').trimEnd();
    if (line === '---' || line === '...') {
      close = i;
      break;
    }
  }
  if (close === -1) return none;
  const source = lines.slice(1, close).map(stripCr).join('\n');
  const range: [number, number] = [1, close + 1];
  const parsed = parseYamlMapping(source);
  return { data: parsed.data, lines: range, bodyStart: close + 1, warning: parsed.warning };
}

function parseYamlMapping(source: string): { data: Frontmatter | null; warning: string | null } {
  if (source.trim() === '') return { data: {}, warning: null };
  const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: false });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const where = line === undefined ? '' : ` (frontmatter line ${line})`;
    return { data: null, warning: `malformed frontmatter${where}: ${firstLine(error.message)}; fix the YAML to index its fields` };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // An alias bomb ("billion laughs": anchors nesting anchors) throws here. One hostile note
    // must not stop indexing: it is indexed without its fields, and the warning says why.
    const reason = error instanceof Error ? firstLine(error.message) : String(error);
    return { data: null, warning: `frontmatter could not be read safely (${reason}); its fields are ignored, simplify the YAML to index them` };
  }
  if (value === null || value === undefined) return { data: {}, warning: null };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { data: null, warning: 'frontmatter is not a key: value mapping; its fields are ignored' };
  }
  return { data: value as Frontmatter, warning: null };
}

/** A string field, or null. Numbers are accepted and stringified (`title: 2024`). */
export function stringField(data: Frontmatter | null, ...keys: string[]): string | null {
  if (!data) return null;
  for (const key of keys) {
    const value = data[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return null;
}

/**
 * A list field that Obsidian also accepts as a single string. `splitPattern` says how a single
 * string is split: aliases by commas, tags by commas and whitespace.
 */
export function listField(data: Frontmatter | null, keys: string[], splitPattern: RegExp): string[] {
  if (!data) return [];
  const out: string[] = [];
  for (const key of keys) {
    const value = data[key];
    const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    for (const item of items) {
      if (typeof item !== 'string' && typeof item !== 'number') continue;
      const text = String(item);
      const parts = Array.isArray(value) ? [text] : text.split(splitPattern);
      for (const part of parts) {
        const trimmed = part.trim();
        if (trimmed !== '') out.push(trimmed);
      }
    }
  }
  return out;
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
