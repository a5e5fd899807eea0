/**
 * Secret redaction for text that leaves the machine (LLM prompts). Pure: text in, redacted text
 * and counts by kind out — never the secret itself, so the counts can be logged.
 *
 * What is caught is a fixed list of shapes: PEM private keys, well-known token formats (Anthropic,
 * OpenAI, GitHub, AWS access key ids, Slack, Google, Stripe, JWTs), bearer/authorization values,
 * passwords in URLs, and values assigned to a secret-named key (`api_key: …`, `password=…`,
 * `client_secret = "…"`). Anything else — a password written as prose, a key of an unknown
 * shape — is not recognised. Prose and code that merely *mention* secrets (`password` as a word,
 * `password: string` in a type, `token = options.token`) are left alone.
 */

export const SECRET_KINDS = [
  'private-key',
  'anthropic-key',
  'openai-key',
  'github-token',
  'aws-access-key',
  'slack-token',
  'slack-webhook',
  'google-api-key',
  'stripe-key',
  'jwt',
  'bearer-token',
  'authorization',
  'url-password',
  'password',
  'secret',
  'token',
  'api-key',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/** How many secrets of each kind were redacted (kinds with none are absent). */
export type RedactionCounts = Partial<Record<SecretKind, number>>;

export interface Redacted {
  text: string;
  found: RedactionCounts;
}

/** What replaces a secret. It matches no pattern below, so redacting twice changes nothing. */
export function placeholder(kind: SecretKind): string {
  return `[redacted ${kind}]`;
}

interface Shape {
  kind: SecretKind;
  pattern: RegExp;
  /** The replacement for one match; default the whole match becomes the placeholder. */
  replace?: (match: string, ...groups: string[]) => string;
}

/** Base64/URL-safe runs of token characters. */
const TOKEN_CHARS = 'A-Za-z0-9_\\-';

/**
 * Specific shapes first: a token found by its format is named by it, before the generic
 * `key = value` rule could call it a mere "token".
 */
const SHAPES: readonly Shape[] = [
  // A whole PEM block; an unterminated one (a note cut off) is redacted to the next blank line.
  { kind: 'private-key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?=\n[ \t]*\n)|$)/g },
  { kind: 'anthropic-key', pattern: new RegExp(`\\bsk-ant-[${TOKEN_CHARS}]{8,}`, 'g') },
  // Letters and digits mixed: `sk-learn-compatible-interfaces` is prose, real keys always mix.
  { kind: 'openai-key', pattern: new RegExp(`\\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[${TOKEN_CHARS}]{0,200}\\d)(?=[${TOKEN_CHARS}]{0,200}[A-Za-z])[${TOKEN_CHARS}]{20,}`, 'g') },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g },
  { kind: 'jwt', pattern: new RegExp(`\\beyJ[${TOKEN_CHARS}]{8,}\\.eyJ[${TOKEN_CHARS}]{8,}\\.[${TOKEN_CHARS}]*`, 'g') },
  // `scheme://user:password@host` keeps the user and host. Bounded runs: unbounded ones made `sk-sk-sk-…` quadratic.
  { kind: 'url-password', pattern: /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{1,256}:)([^\s/@]{1,256})(@)/gi, replace: (_m, head, _secret, at) => `${head}${placeholder('url-password')}${at}` },
  {
    kind: 'authorization',
    pattern: /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Token|Digest|Bot)\s+)?([^\s"',;{}]{8,})/gi,
    replace: (match, head, scheme, value) => (isPlaceholderValue(value) ? match : `${head}${scheme ? `${scheme} ` : ''}${placeholder('authorization')}`),
  },
  // A bearer token must look like one (a digit, 12+ characters): "the bearer instrument" is prose.
  { kind: 'bearer-token', pattern: /\b(Bearer\s+)((?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{12,})/gi, replace: (_m, head) => `${head}${placeholder('bearer-token')}` },
];

/** Key names whose value is a secret. Matched as a whole key, allowing prefixes (`db_password`, `GITHUB_TOKEN`). */
const SECRET_KEY = /^[A-Za-z0-9_.-]*?(password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?)$/i;

/**
 * `key: value`, `key = value`, `key := value`, `key => value`, the key optionally quoted, the
 * value quoted (may hold spaces) or bare. Group 1 the text before the key, 2 the key, 3 its
 * closing quote and the operator, 4 a quoted value with its quotes, 5 a bare value.
 */
const ASSIGNMENT =
  /(^|[^A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?))(["'`]?[ \t]*(?::=|=>|:|=(?!=))(?:\*\*|__)?[ \t]*)("[^"\n]*"|'[^'\n]*'|`[^`\n]*`|[^\s"'`,;)\]}]+)?/gim;

/** Values that stand for a secret rather than being one: types, placeholders, references. */
const NOT_A_VALUE =
  /^(?:string|str|text|number|int|integer|bool|boolean|bytes|any|unknown|object|null|nil|none|undefined|true|false|yes|no|required|optional|redacted|hidden|secret|password|token|env|await|async|new|function|lambda|yield|this|self|input|\*+|x{3,}|\.{3}|…|-+)$/i;

function isPlaceholderValue(value: string): boolean {
  const bare = value.replace(/^["'`]|["'`]$/g, '').trim();
  if (bare === '' || NOT_A_VALUE.test(bare)) return true;
  // Template and reference syntax: <your-key>, ${TOKEN}, {{ secret }}, %PASSWORD%, [redacted …].
  if (/^(?:<|\$\{?|\{\{|%.*%$|\[redacted|\(|#)/.test(bare)) return true;
  // Code reads a secret from the environment or a store (Node's, Python's, Deno's, Vite's, CI's).
  if (/(?:process[.]env|os\.environ|getenv|Deno\.env|import\.meta\.env|secrets\.|vault\.|ENV\[)/i.test(bare)) return true;
  return false;
}

/**
 * A bare value that is code rather than a literal: a member path or call (`options.apiKey`,
 * `getToken()`), a generic or indexed type (`Optional[str`, `Array<string>`), a type name after
 * a colon (`apiKey: ApiKey`), or a variable that itself names a secret (`api_key = api_key`,
 * `token = access_token`).
 */
function isCodeReference(key: string, operator: string, value: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\)?;?$/.test(value) || /\w\(/.test(value) || /^[A-Za-z_$][\w$.]*[[<]/.test(value)) return true;
  if (operator.trim().startsWith(':') && /^[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:\[\])?\??$/.test(value)) return true;
  const word = (SECRET_KEY.exec(key)?.[1] ?? key).toLowerCase().replace(/[_-]/g, '');
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) && value.toLowerCase().replace(/[_-]/g, '').endsWith(word) && /[_A-Z]|^[a-z]+$/.test(value);
}

/** The kind a secret-named key stands for. */
function kindOfKey(key: string): SecretKind {
  const word = (SECRET_KEY.exec(key)?.[1] ?? key).toLowerCase();
  if (/^(password|passwd|passphrase|pwd)$/.test(word)) return 'password';
  if (word === 'token') return 'token';
  if (/^(api[_-]?key|apikey|access[_-]?key|auth[_-]?key)$/.test(word)) return 'api-key';
  return 'secret';
}

/**
 * Whether `key <op> value` assigns a secret. A quoted literal always does, and so does any literal
 * under a code-like key (`api_key`, `apiKey`, `GITHUB_TOKEN`) or after `=`. Under a plain word
 * (`Password:`, `token:`) the value must look like a secret rather than the start of a sentence:
 * alone at the end of a line of its own (YAML, a list item), or holding a digit or symbol — so
 * "Token: the smallest unit" and "the password: keep it safe" stay prose.
 */
function assignsSecret(key: string, operator: string, value: string, where: { lineStart: boolean; restOfLine: string }): boolean {
  if (isPlaceholderValue(value)) return false;
  if (/^["'`]/.test(value)) return true;
  if (isCodeReference(key, operator, value)) return false;
  // `pwd` alone is the shell's working directory far more often than a password.
  if (key.toLowerCase() === 'pwd') return false;
  const codeLikeKey = /[_.-]/.test(key) || /[a-z][A-Z]/.test(key) || /^[A-Z0-9_]+$/.test(key);
  if (codeLikeKey || operator.includes('=')) return true;
  const symbolic = /[^\p{L}]/u.test(value);
  if (where.lineStart) return where.restOfLine.trim() === '' || (symbolic && value.length >= 6);
  return symbolic && value.length >= 6;
}

/** How far around an assignment its line is looked at. */
const LINE_WINDOW = 256;

function redactAssignments(text: string, count: (kind: SecretKind) => void): string {
  return text.replace(ASSIGNMENT, (match: string, before: string, key: string, operator: string, value: string | undefined, offset: number, whole: string) => {
    if (value === undefined || !SECRET_KEY.test(key)) return match;
    // Look at most a short way either side: scanning whole lines made a note without newlines quadratic.
    const from = Math.max(0, offset - LINE_WINDOW);
    const head = whole.slice(from, offset + before.length);
    const newlineBefore = head.lastIndexOf('\n');
    const end = offset + match.length;
    const tail = whole.slice(end, end + LINE_WINDOW);
    const newlineAfter = tail.indexOf('\n');
    const restOfLine = newlineAfter === -1 ? tail : tail.slice(0, newlineAfter);
    // Only indentation, a list marker, `export`, a quote or emphasis may precede a key on its own line.
    const lineStart = (newlineBefore !== -1 || from === 0) && /^[ \t]*(?:[-*+>][ \t]+|\d+\.[ \t]+)?(?:export[ \t]+|set[ \t]+)?["'`*_]*$/i.test(head.slice(newlineBefore + 1));
    if (!assignsSecret(key, operator, value, { lineStart, restOfLine })) return match;
    const kind = kindOfKey(key);
    count(kind);
    const quote = /^["'`]/.test(value) ? value[0]! : '';
    return `${before}${key}${operator}${quote}${placeholder(kind)}${quote}`;
  });
}

/** Redacts every recognised secret in `text`. Idempotent. */
export function redactText(text: string): Redacted {
  const found: RedactionCounts = {};
  const count = (kind: SecretKind) => {
    found[kind] = (found[kind] ?? 0) + 1;
  };
  let out = text;
  for (const shape of SHAPES) {
    out = out.replace(shape.pattern, (match: string, ...groups: unknown[]) => {
      const replaced = shape.replace ? shape.replace(match, ...(groups.filter((group) => typeof group === 'string' || group === undefined) as string[])) : placeholder(shape.kind);
      if (replaced !== match) count(shape.kind);
      return replaced;
    });
  }
  out = redactAssignments(out, count);
  return { text: out, found };
}

/**
 * Redacts a JSON-like value (parsed frontmatter): strings are redacted as text, and a string or
 * number under a secret-named key is redacted whole (`{ api_key: 'abc123' }`).
 */
export function redactValue(value: unknown, found: RedactionCounts = {}): { value: unknown; found: RedactionCounts } {
  const add = (counts: RedactionCounts) => {
    for (const [kind, n] of Object.entries(counts)) found[kind as SecretKind] = (found[kind as SecretKind] ?? 0) + n;
  };
  const walk = (item: unknown, key: string | null): unknown => {
    if ((typeof item === 'string' || typeof item === 'number' || typeof item === 'bigint') && key !== null && SECRET_KEY.test(key) && !isPlaceholderValue(String(item))) {
      add({ [kindOfKey(key)]: 1 });
      return placeholder(kindOfKey(key));
    }
    if (typeof item === 'string') {
      const redacted = redactText(item);
      add(redacted.found);
      return redacted.text;
    }
    if (Array.isArray(item)) return item.map((element) => walk(element, key));
    if (item instanceof Date || item === null || typeof item !== 'object') return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).map(([k, v]) => [k, walk(v, k)]));
  };
  return { value: walk(value, null), found };
}

/** Sums redaction counts. */
export function addCounts(into: RedactionCounts, more: RedactionCounts): RedactionCounts {
  for (const [kind, n] of Object.entries(more)) into[kind as SecretKind] = (into[kind as SecretKind] ?? 0) + n;
  return into;
}

export function countOfRedactions(found: RedactionCounts): number {
  return Object.values(found).reduce((sum, n) => sum + n, 0);
}

/** `2 password, 1 anthropic-key` — kinds and counts, for logs and reports. Empty when nothing was redacted. */
export function describeRedactions(found: RedactionCounts): string {
  return SECRET_KINDS.filter((kind) => (found[kind] ?? 0) > 0)
    .map((kind) => `${found[kind]} ${kind}`)
    .join(', ');
}
