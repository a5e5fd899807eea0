import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRedactions, redactText, redactValue, type SecretKind } from '../../src/graph/redact.js';
import { buildExtractionPrompt } from '../../src/graph/prompt.js';

/** A deterministic generator (mulberry32), so a failing case can be reproduced from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const chars = (next: () => number, alphabet: string, length: number) => Array.from({ length }, () => pick(next, [...alphabet])).join('');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** One secret of each shape, freshly generated; each carries a digit so no shape is a plain word. */
const SECRETS: { kind: SecretKind; make: (next: () => number) => { line: string; secret: string } }[] = [
  {
    kind: 'anthropic-key',
    make: (n) => {
      const s = `sk-ant-api03-${chars(n, ALNUM, 40)}7`;
      return { line: `key ${s} here`, secret: s };
    },
  },
  {
    kind: 'openai-key',
    make: (n) => {
      const s = `sk-proj-${chars(n, ALNUM, 30)}9Q`;
      return { line: `OPENAI ${s}`, secret: s };
    },
  },
  {
    kind: 'github-token',
    make: (n) => {
      const s = `ghp_${chars(n, ALNUM, 36)}`;
      return { line: `(${s})`, secret: s };
    },
  },
  {
    kind: 'github-token',
    make: (n) => {
      const s = `github_pat_${chars(n, ALNUM, 40)}`;
      return { line: `use ${s}.`, secret: s };
    },
  },
  {
    kind: 'aws-access-key',
    make: (n) => {
      const s = `AKIA${chars(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
      return { line: `aws id ${s} ok`, secret: s };
    },
  },
  {
    kind: 'slack-token',
    make: (n) => {
      const s = `xoxb-${chars(n, '0123456789', 11)}-${chars(n, ALNUM, 24)}`;
      return { line: `slack ${s}`, secret: s };
    },
  },
  {
    kind: 'jwt',
    make: (n) => {
      const s = `eyJ${chars(n, ALNUM, 20)}.eyJ${chars(n, ALNUM, 30)}.${chars(n, ALNUM, 43)}`;
      return { line: `cookie=${s}`, secret: s };
    },
  },
  {
    kind: 'bearer-token',
    make: (n) => {
      const s = `${chars(n, ALNUM, 30)}7`;
      return { line: `send Bearer ${s} with it`, secret: s };
    },
  },
  {
    kind: 'authorization',
    make: (n) => {
      const s = `${chars(n, ALNUM, 24)}=`;
      return { line: `Authorization: Basic ${s}`, secret: s };
    },
  },
  {
    kind: 'url-password',
    make: (n) => {
      const s = `p4${chars(n, ALNUM, 14)}`;
      return { line: `postgres://app:${s}@db.internal:5432/prod`, secret: s };
    },
  },
  {
    kind: 'private-key',
    make: (n) => {
      const s = chars(n, ALNUM, 64);
      return { line: `-----BEGIN OPENSSH PRIVATE KEY-----\n${s}\n${chars(n, ALNUM, 64)}\n-----END OPENSSH PRIVATE KEY-----`, secret: s };
    },
  },
  {
    kind: 'password',
    make: (n) => {
      const s = `${chars(n, ALNUM, 10)}!3`;
      return { line: `password=${s}`, secret: s };
    },
  },
  {
    kind: 'password',
    make: (n) => {
      const s = chars(n, 'abcdefghijklmnopqrstuvwxyz', 12);
      return { line: `  db_password: ${s}`, secret: s };
    },
  },
  {
    kind: 'api-key',
    make: (n) => {
      const s = `${chars(n, ALNUM, 24)}4`;
      return { line: `api_key: ${s}`, secret: s };
    },
  },
  {
    kind: 'secret',
    make: (n) => {
      const s = `${chars(n, 'abcdefghij', 6)} ${chars(n, 'klmnopqrst', 6)}`;
      return { line: `client_secret = "${s}"`, secret: s };
    },
  },
  {
    kind: 'token',
    make: (n) => {
      const s = `${chars(n, ALNUM, 20)}5`;
      return { line: `- token: ${s}`, secret: s };
    },
  },
];

const PROSE = [
  'I forgot my password again, so I reset it.',
  'The secret to good bread is time.',
  'Each token is a word piece.',
  'Token: the smallest unit a model reads',
  'Reset the password: open Settings, then Security.',
  'passwords are hard; use a manager',
  'Ask Ana for the API key tomorrow.',
  'The bearer instrument pays on demand.',
  'Keys: house, car, office.',
  'We talked about secrets management.',
  'interface Login { password: string; token?: string }',
  'const token = options.token;',
  'const apiKey = process.env.ANTHROPIC_API_KEY;',
  'api_key: ${ANTHROPIC_API_KEY}',
  'password: <your password here>',
  'token = getToken(user)',
  'secret: null',
  'see sk-learn-style pipelines',
  'Commit 3f2a9c1 fixed the token refresh.',
  'https://example.com/docs#password',
  'Met [[Ana Silva]] about #search and the auth flow.',
  'if (password == "admin") return;',
  'apiKey: ApiKey;',
  'def login(password: str, token: Optional[str] = None):',
  'self.api_key = api_key',
  'const secret = await getSecret();',
  'headers = {"Authorization": f"Bearer {token}"}',
  'client_secret: z.string()',
  '  password: ${{ secrets.DB_PASSWORD }}',
  'token_count: 123',
  'max_tokens: 4096',
  'pwd: /home/ana',
  'password: 12 characters at least',
  'Use `password=...` in the URL',
  '| field | type |\n| password | string |',
  '```\nif (!password) throw new Error("password required");\n```',
  'PASSWORD_MIN_LENGTH = 12 is the rule.',
];

test('each secret shape is redacted wherever it sits in ordinary text, counted by kind, and redacting again changes nothing', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const next = random(seed);
    const chosen = pick(next, SECRETS);
    const { line, secret } = chosen.make(next);
    const before = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, PROSE));
    const after = Array.from({ length: Math.floor(next() * 3) }, () => pick(next, PROSE));
    const text = [...before, line, ...after].join('\n');
    const result = redactText(text);
    assert.ok(!result.text.includes(secret), `seed ${seed}: ${chosen.kind} survived in ${JSON.stringify(result.text)}`);
    assert.equal(result.found[chosen.kind], 1, `seed ${seed}: counted as ${JSON.stringify(result.found)}`);
    assert.equal(
      Object.values(result.found).reduce((a, b) => a + b, 0),
      1,
      `seed ${seed}: nothing else redacted (${JSON.stringify(result.found)}) in ${JSON.stringify(text)} → ${JSON.stringify(result.text)}`,
    );
    for (const part of [...before, ...after]) assert.ok(result.text.includes(part), `seed ${seed}: prose around it is kept`);
    assert.deepEqual(redactText(result.text), { text: result.text, found: {} }, `seed ${seed}: idempotent`);
  }
});

test('ordinary prose and code that mention passwords, tokens and keys are left alone', () => {
  for (const text of PROSE) assert.deepEqual(redactText(text), { text, found: {} }, text);
  for (let seed = 1; seed <= 200; seed++) {
    const next = random(seed);
    const text = Array.from({ length: 6 }, () => pick(next, PROSE)).join(pick(next, [' ', '\n', '\n\n']));
    assert.deepEqual(redactText(text).found, {}, `seed ${seed}: ${JSON.stringify(text)}`);
  }
});

test('a plain-word key holds a secret alone on its line or when it looks like one; a sentence after it is prose', () => {
  assert.equal(redactText('Password: hunter2').text, 'Password: [redacted password]');
  assert.equal(redactText('password: swordfish').text, 'password: [redacted password]');
  assert.equal(redactText('wifi password: Tr0ub4dor&3 (guest)').text, 'wifi password: [redacted password] (guest)');
  assert.equal(redactText('Password: must be 12 characters or more').text, 'Password: must be 12 characters or more');
  assert.equal(redactText('**Password:** hunter2').text, '**Password:** [redacted password]');
  assert.equal(redactText('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY').text, 'AWS_SECRET_ACCESS_KEY=[redacted api-key]');
  assert.equal(redactText('export GITHUB_TOKEN=abc').text, 'export GITHUB_TOKEN=[redacted token]');
  assert.equal(redactText('"apiKey": "abc"').text, '"apiKey": "[redacted api-key]"');
});

test('an unterminated private key is redacted up to the next blank line', () => {
  const result = redactText('before\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\nhkiG9w0BAQEFAASC\n\nafter');
  assert.equal(result.text, 'before\n[redacted private-key]\n\nafter');
});

test('frontmatter values under secret-named keys are redacted whole, other strings as text', () => {
  const { value, found } = redactValue({ title: 'Setup', api_key: 'abc123', port: 5432, nested: { password: 12345678, note: 'use sk-ant-api03-abcdefghijkl' }, tags: ['ops'] });
  assert.deepEqual(value, { title: 'Setup', api_key: '[redacted api-key]', port: 5432, nested: { password: '[redacted password]', note: 'use [redacted anthropic-key]' }, tags: ['ops'] });
  assert.equal(describeRedactions(found), '1 anthropic-key, 1 password, 1 api-key');
});

test('the extraction prompt carries no secret from any part of the note, and says what it removed', () => {
  const secret = 'sk-ant-api03-SECRETSECRET0123456789';
  const { system, user, redacted } = buildExtractionPrompt({
    path: 'Ops/Setup.md',
    title: `Keys ${secret}`,
    text: `---\napi_key: abcdef123456\n---\nUse ${secret}.\npassword=hunter22\n`,
    frontmatter: { api_key: 'abcdef123456' },
    tags: ['ops'],
    links: [],
    known: [{ name: 'Ana', type: 'person', aliases: [secret] }],
  });
  for (const leaked of [secret, 'abcdef123456', 'hunter22']) assert.ok(!`${system}\n${user}`.includes(leaked), leaked);
  assert.deepEqual(redacted, { 'anthropic-key': 3, 'api-key': 2, password: 1 });
});

test('pathological runs (repeated prefixes of every shape) are handled in one pass and stay idempotent', () => {
  // Each of these once made a pattern rescan the rest of the run from every position.
  for (const piece of ['sk-', 'sk-ant-', 'eyJa.', 'https://a:b@', 'a_token: ', 'github_pat_', 'Bearer a1', 'xoxb-', '-----BEGIN PRIVATE KEY-----\n', 'password=', '#private/']) {
    const text = piece.repeat(20_000);
    const once = redactText(text).text;
    assert.equal(redactText(once).text, once, piece);
  }
});
