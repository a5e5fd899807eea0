/**
 * Private notes and secrets never reach an LLM: real `engram graph index` and `engram librarian`
 * processes, ENGRAM_EXTRACTOR=anthropic and a merge adjudicator, against a fake Messages API on
 * 127.0.0.1 that records every request. A vault holds every spelling of "private" (each note
 * carrying a unique marker) and ordinary notes with secrets of every listed shape written in
 * them; no marker and no secret may appear in any request, and the egress log names what was
 * redacted.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { spawnCliAsync, type CliResult } from '../helpers/cli.js';
import { startFakeAnthropic, type MessagesBody, type ScriptStep } from '../helpers/fake-anthropic.js';
import { PRIVATE_SPELLINGS } from '../helpers/private-notes.js';
import { makeVault } from '../helpers/vault.js';

/** Secrets written in ordinary (public) notes, one per listed shape. None may leave. */
const SECRETS = {
  anthropic: 'sk-ant-api03-Zq8XbV2mN5kL7pR4tY1wE6uI9oA3sD0fG-hJ2kL5zX8cV_1bN4mQ7w',
  openai: 'sk-proj-T3stK3yAbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  github: 'ghp_R8fK2mX9pL4vN7qT1wZ5yB3cD6hJ0sA2gE4i',
  githubPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123',
  aws: 'AKIAZ7Q4XK2PLM9TRW3N',
  slack: 'xoxb-20240517-99887766554-Qw3rTy7uIo9pAs2dFg4hJk6l',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbmEiLCJpYXQiOjE3MTYwMDAwMDB9.c2lnbmF0dXJlLW5vdC1yZWFsLWJ1dC1zaGFwZWQ',
  bearer: 'b3ar3rT0k3nQx7Lm2Np9Rs4Vw',
  pem: 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC7PrIvAtEkEyBoDy',
  password: 'Corr3ct-H0rse!',
  yamlKey: 'fm-4f9a8b7c6d5e4f3a2b1c',
  dbPassword: 'pgS3cr3tW0rd',
  clientSecret: 'shh it is the garden gate code',
  evidencePassword: 'hunter2-EV1D3NCE',
};

const PUBLIC_NOTES: Record<string, string> = {
  'Ops/Deploy.md':
    `---\ntitle: Deploy runbook\napi_key: ${SECRETS.yamlKey}\n---\n# Deploy\nAna Silva owns the deploy.\n\n` +
    `- Anthropic: ${SECRETS.anthropic}\n- OpenAI: OPENAI_API_KEY=${SECRETS.openai}\n- GitHub: ${SECRETS.github} and ${SECRETS.githubPat}\n` +
    `- AWS id ${SECRETS.aws}\n- Slack bot ${SECRETS.slack}\n- session ${SECRETS.jwt}\n` +
    `- curl -H "Authorization: Bearer ${SECRETS.bearer}" https://api.example.com\n- password=${SECRETS.password}\n` +
    `- DATABASE_URL=postgres://deploy:${SECRETS.dbPassword}@db.internal:5432/app\n- client_secret = "${SECRETS.clientSecret}"\n\n` +
    `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.pem}\nAnotherLineOfKeyMaterial0123456789\n-----END RSA PRIVATE KEY-----\n\nThe password policy says twelve characters.\n`,
  'Meetings/Retro.md': '# Retro\nAnna Silva ran the retro. We agreed the token refresh needs tests.\n',
  'Projects/Atlas.md': '# Atlas\nSearch migration led by Ana Silva.\n',
};

/** Extraction replies by note; the adjudicator's verdict for merge candidates. */
function fakeStep(): ScriptStep {
  return (body: MessagesBody) => {
    const tool = body.tools?.[0]?.name;
    const usage = { input_tokens: 500, output_tokens: 50 };
    const reply = (name: string, input: unknown) => ({
      status: 200,
      json: { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model ?? 'x', content: [{ type: 'tool_use', id: 'toolu_1', name, input }], stop_reason: 'tool_use', stop_sequence: null, usage },
    });
    if (tool === 'record_verdict') return reply('record_verdict', { same: false, reason: 'two people' });
    const user = body.messages?.[0]?.content ?? '';
    // The cache can hold a quote with a secret in it (extractions made before redaction existed,
    // the structural extractor quoting a note as written); the adjudicator must redact it too.
    const person = user.includes('Anna Silva')
      ? { name: 'Anna Silva', type: 'person', aliases: [], evidence: `Anna Silva said password=${SECRETS.evidencePassword}` }
      : { name: 'Ana Silva', type: 'person', aliases: [], evidence: 'Ana Silva owns it' };
    return reply('record_extraction', { entities: user.includes('Silva') ? [person] : [], relations: [] });
  };
}

function run(argv: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawnCliAsync(argv, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

test('no private note and no secret reaches the LLM; the egress log says what was redacted', async (t) => {
  const privateNotes = Object.fromEntries(
    Object.entries(PRIVATE_SPELLINGS)
      .filter(([name]) => name !== 'alias-bomb') // the indexer's own concern; the unit test covers its privacy
      .map(([name, text]) => [`Private/${name}.md`, `${text}PRIVATE-BODY-${name} Ana Silva\n`]),
  );
  assert.ok(Object.keys(privateNotes).length >= 14);
  const vault = makeVault(t, { ...privateNotes, ...PUBLIC_NOTES });
  const fake = await startFakeAnthropic(Array.from({ length: 200 }, fakeStep));
  t.after(() => fake.close());
  const env = {
    ENGRAM_HOME: vault.home,
    ENGRAM_VAULT: vault.root,
    ENGRAM_EXTRACTOR: 'anthropic',
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.url,
    ENGRAM_EXTRACT_MODEL: 'claude-haiku-test',
  };

  const indexed = await run(['graph', 'index', '--json'], env);
  assert.equal(indexed.code, 0, indexed.stderr);
  const report = JSON.parse(indexed.stdout);
  assert.equal(report.processed, Object.keys(PUBLIC_NOTES).length, 'every public note was sent');
  assert.equal(report.skippedPrivate, Object.keys(privateNotes).length, 'no private note was sent');
  // The other unparseable note says `tags: [private]`: private for that, whatever the parser makes of it.
  assert.deepEqual(report.unreadablePrivate, ['Private/unparseable-anything.md']);
  assert.ok(report.redacted['anthropic-key'] >= 1 && report.redacted['private-key'] === 1, JSON.stringify(report.redacted));

  // A private note and a secret added later go through the Librarian, with a merge judge on.
  vault.write('Private/later.md', `---\nTags: [Private]\n---\nPRIVATE-BODY-later Anna Silva\n`);
  vault.write('Notes/Later.md', `# Later\nAnna Silva: the staging password: ${SECRETS.password}x9\n`);
  const swept = await run(['librarian'], { ...env, ENGRAM_CONSOLIDATE_MODEL: 'claude-judge-test' });
  assert.equal(swept.code, 0, `${swept.stdout}\n${swept.stderr}`);

  const bodies = fake.requests.map((request) => JSON.stringify(request.body));
  const extractions = fake.requests.filter((request) => request.body.tools?.[0]?.name === 'record_extraction');
  const verdicts = fake.requests.filter((request) => request.body.tools?.[0]?.name === 'record_verdict');
  assert.equal(extractions.length, Object.keys(PUBLIC_NOTES).length + 1, 'the public notes, and the later one, were sent once each');
  assert.ok(verdicts.length >= 1, 'the merge judge was asked (Ana Silva / Anna Silva)');
  for (const body of bodies) {
    for (const name of [...Object.keys(PRIVATE_SPELLINGS), 'later']) assert.ok(!body.includes(`PRIVATE-BODY-${name}`), `private note ${name} reached the API`);
    for (const [kind, secret] of Object.entries(SECRETS)) assert.ok(!body.includes(secret), `the ${kind} secret reached the API`);
  }
  assert.ok(
    bodies.some((body) => body.includes('[redacted anthropic-key]')),
    'the note was sent, with the secret replaced',
  );
  assert.ok(
    bodies.some((body) => body.includes('password policy says twelve characters')),
    'prose about passwords is sent as written',
  );

  const db = new Database(join(vault.home, readdirSync(vault.home)[0]!, 'engram.db'), { readonly: true });
  t.after(() => db.close());
  const logged = db.prepare('SELECT note_path, backend, redacted FROM egress ORDER BY id').all() as { note_path: string; backend: string; redacted: string }[];
  assert.ok(
    logged.every((row) => !row.note_path.startsWith('Private/')),
    'no private note in the egress log',
  );
  const deploy = JSON.parse(logged.find((row) => row.note_path === 'Ops/Deploy.md' && row.backend === 'anthropic')!.redacted);
  assert.deepEqual(deploy, {
    'private-key': 1,
    'anthropic-key': 1,
    'openai-key': 1,
    'github-token': 2,
    'aws-access-key': 1,
    'slack-token': 1,
    jwt: 1,
    authorization: 1,
    'url-password': 1,
    password: 1,
    secret: 1,
    'api-key': 2,
  });
  assert.deepEqual(JSON.parse(logged.find((row) => row.note_path === 'Notes/Later.md')!.redacted), { password: 1 });
  const judged = logged.filter((row) => row.backend === 'anthropic-adjudicator');
  assert.ok(judged.length >= 1 && judged.every((row) => JSON.parse(row.redacted).password >= 1), JSON.stringify(judged));
  for (const row of logged) for (const secret of Object.values(SECRETS)) assert.ok(!row.redacted.includes(secret));
  const librarian = readFileSync(join(vault.root, 'Claude/Librarian.md'), 'utf8');
  assert.match(librarian, /secrets redacted before sending: 1 password/);
});
