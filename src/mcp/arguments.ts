/**
 * A tool call's arguments checked against the tool's schema before the SDK sees them, so that a
 * wrong value or an unknown field comes back as an `[INVALID_INPUT]` result naming the field and
 * what it takes: the SDK's own check answers `MCP error -32602: Input validation error` with a
 * raw zod dump and no code, and it drops a field it does not know without a word (a misspelt
 * `folders` then searched the whole vault).
 */
import type { z } from 'zod';

/** Problems named in one refusal; the rest are summed up ("and 3 more"). */
const MAX_PROBLEMS = 4;
/** A field's description is quoted as "what it takes" only when it is this short. */
const MAX_DESCRIPTION_CHARS = 160;
/** The longest piece of a refused value quoted back. */
const MAX_SHOWN_CHARS = 40;

/** What a refused call gets: the sentence after `[INVALID_INPUT] `. */
export const ARGUMENTS_REMEDY = 'correct the arguments and call again (tools/list gives every parameter)';

type Issue = z.core.$ZodIssue;

/**
 * Why `args` cannot be `tool`'s arguments (one sentence, without the code), or null when the
 * schema takes them. `schema` is the tool's strict object schema, as registered.
 */
export function argumentsProblem(tool: string, schema: z.ZodObject, args: unknown): string | null {
  let parsed: ReturnType<z.ZodObject['safeParse']>;
  try {
    parsed = schema.safeParse(args ?? {});
  } catch {
    return null; // an asynchronous check: the SDK runs it
  }
  if (parsed.success) return null;
  const problems = parsed.error.issues.flatMap((issue) => describeIssue(issue, args, schema));
  const described = new Set<string>();
  const notes: string[] = [];
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || described.has(field)) continue;
    described.add(field);
    const description = describedAs(schema.shape[field] as z.ZodType | undefined);
    if (description !== undefined && description.length <= MAX_DESCRIPTION_CHARS) notes.push(`${field}: ${description}`);
  }
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  const takes = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return `${tool}: ${shown.join('; ')}${more}${takes}; ${ARGUMENTS_REMEDY}`;
}

/** One issue as plain sentences: the field by its path, what is wrong, what it takes. */
function describeIssue(issue: Issue, args: unknown, schema: z.ZodObject): string[] {
  const where = fieldPath(issue.path);
  const value = valueAt(args, issue.path);
  const fields = Object.keys(schema.shape);
  switch (issue.code) {
    case 'unrecognized_keys':
      return unknownFields(issue.keys, issue.path.length === 0 ? fields : nestedFields(schema, issue.path), where);
    case 'invalid_type':
      return [value === undefined ? `${where} is required` : `${where} must be ${TYPE_NAMES[issue.expected] ?? `a ${issue.expected}`}, not ${shown(value)}`];
    case 'too_small':
      return [`${where} ${bound(issue.origin, 'at least', issue.minimum, issue.inclusive !== false)}, not ${sized(issue.origin, value)}`];
    case 'too_big':
      return [`${where} ${bound(issue.origin, 'at most', issue.maximum, issue.inclusive !== false)}, not ${sized(issue.origin, value)}`];
    case 'invalid_value':
      return [`${where} must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((one) => JSON.stringify(one)).join(', ')}`}, not ${shown(value)}`];
    case 'invalid_union':
      return [unionProblem(issue, args, schema)];
    case 'not_multiple_of':
      return [`${where} must be a multiple of ${String(issue.divisor)}, not ${shown(value)}`];
    case 'invalid_format':
      return [`${where} must be ${issue.format === 'regex' ? 'in the form the parameter describes' : `a valid ${issue.format}`}, not ${shown(value)}`];
    case 'invalid_key':
    case 'invalid_element':
    case 'custom':
      return [`${where}: ${issue.message}`];
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean (true or false)',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  null: 'null',
};

/**
 * A union the value fits no option of. When every option failed on the value itself (`folder:
 * 5`), what the options take; otherwise the option the value came closest to (the deepest
 * problem: `folder: [5]` is a list whose item is wrong), described as its own issue.
 */
function unionProblem(issue: Extract<Issue, { code: 'invalid_union' }>, args: unknown, schema: z.ZodObject): string {
  const branches = issue.errors.filter((branch) => branch.length > 0);
  const depth = (branch: readonly Issue[]) => Math.max(...branch.map((one) => one.path.length));
  const closest = [...branches].sort((a, b) => depth(b) - depth(a))[0];
  if (closest !== undefined && depth(closest) > 0) {
    const nested = closest.map((one) => ({ ...one, path: [...issue.path, ...one.path] }) as Issue);
    return nested.flatMap((one) => describeIssue(one, args, schema)).join('; ');
  }
  const wanted = [...new Set(branches.flatMap((branch) => branch.map((one) => (one.code === 'invalid_type' ? (TYPE_NAMES[one.expected] ?? `a ${one.expected}`) : null))).filter((name) => name !== null))];
  const where = fieldPath(issue.path);
  const value = valueAt(args, issue.path);
  if (wanted.length === 0) return `${where}: ${issue.message}`;
  return `${where} must be ${wanted.length === 1 ? wanted[0] : `${wanted.slice(0, -1).join(', ')} or ${wanted[wanted.length - 1]}`}, not ${shown(value)}`;
}

/** The fields of the object at `path` inside the arguments (`where[0]` → field, op, value), or none known. */
function nestedFields(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at = unwrapped(schema);
  for (const part of path) {
    const def = at?.def as WrapperDef | undefined;
    at = unwrapped(typeof part === 'number' ? def?.element : def?.shape?.[String(part)]);
  }
  const shape = (at?.def as WrapperDef | undefined)?.shape;
  return shape === undefined ? [] : Object.keys(shape);
}

/** A field's description, wherever in its wrappers it was given (`.default(…).describe(…)` inside a preprocess). */
function describedAs(schema: z.ZodType | undefined): string | undefined {
  for (let at = schema; at !== undefined;) {
    if (at.description !== undefined) return at.description;
    const def = at.def as WrapperDef;
    at = def.type === 'pipe' ? def.out : def.innerType;
  }
  return undefined;
}

/** Through optional, default and numeric-string (preprocess) wrappers to the schema that holds the value. */
function unwrapped(schema: z.ZodType | undefined): z.ZodType | undefined {
  let at = schema;
  for (;;) {
    const def = at?.def as WrapperDef | undefined;
    const inner = def === undefined ? undefined : def.type === 'pipe' ? def.out : def.innerType;
    if (inner === undefined) return at;
    at = inner;
  }
}

type WrapperDef = { type: string; innerType?: z.ZodType; out?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };

/** `limit`, `alternatives[1]`, `where[0].value`; `arguments` for the object itself. */
function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'arguments';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}

function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let value = args;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function bound(origin: string, side: 'at least' | 'at most', limit: number | bigint, inclusive: boolean): string {
  const n = Number(limit);
  if (origin === 'string') return n === 1 && side === 'at least' ? 'must not be empty' : `must be ${side} ${n} characters long`;
  if (origin === 'array' || origin === 'set') return `must hold ${side} ${n} item${n === 1 ? '' : 's'}`;
  if (inclusive) return `must be ${side} ${n}`;
  return `must be ${side === 'at least' ? 'greater' : 'less'} than ${n}`;
}

/** The refused value as the bound counts it: a list's length, a string's length, else itself. */
function sized(origin: string, value: unknown): string {
  if (origin === 'array' && Array.isArray(value)) return `${value.length} (${shown(value)})`;
  if (origin === 'string' && typeof value === 'string') return `${value.length} (${shown(value)})`;
  return shown(value);
}

/** A value quoted back, short: strings and numbers as JSON, the rest by kind. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const json = JSON.stringify(value);
    return json.length <= MAX_SHOWN_CHARS ? json : `a list of ${value.length}`;
  }
  if (typeof value === 'object') return 'an object';
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= MAX_SHOWN_CHARS ? json : `${json.slice(0, MAX_SHOWN_CHARS)}…`;
}

/**
 * `unknown field "folders" (did you mean "folder"?)`; fields with no near name together, with
 * the fields there are (or that there are none).
 */
function unknownFields(keys: readonly string[], fields: readonly string[], where: string): string[] {
  const at = where === 'arguments' ? '' : ` in ${where}`;
  const said: string[] = [];
  const far: string[] = [];
  for (const key of keys) {
    const near = nearestName(key, fields);
    if (near !== null) said.push(`unknown field "${key}"${at} (did you mean "${near}"?)`);
    else far.push(`"${key}"`);
  }
  if (far.length === 0) return said;
  const named = `unknown field${far.length === 1 ? '' : 's'} ${far.join(', ')}${at}`;
  if (fields.length > 0) return [...said, `${named} (the fields are ${fields.join(', ')})`];
  return [...said, where === 'arguments' ? `${named} (this tool takes no parameters)` : named];
}

/**
 * The field `key` most likely meant: the same up to case, `_`, `-` and spaces (`maxTokens`), one
 * inside the other (`max` → `max_tokens`), or a few letters apart (`folders`, `limt`).
 */
export function nearestName(key: string, names: readonly string[]): string | null {
  const squash = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
  const wanted = squash(key);
  if (wanted === '') return null;
  const same = names.find((name) => squash(name) === wanted);
  if (same !== undefined) return same;
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(wanted, squash(name));
    if (distance <= Math.max(1, Math.floor(wanted.length / 3)) && (best === null || distance < best.distance)) best = { name, distance };
  }
  if (best !== null) return best.name;
  const within = names.filter((name) => wanted.length >= 3 && (squash(name).includes(wanted) || wanted.includes(squash(name))));
  return within.length === 1 ? within[0]! : null;
}

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
