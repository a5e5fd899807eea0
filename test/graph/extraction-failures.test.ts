/**
 * Run-level extraction failures through the backlog, with real SQLite and an extractor written
 * for the test: an environment failure stops the run and charges no note, and is kept in state
 * until a run extracts again; note failures park a note with its reason until --retry-failed;
 * migration 011 releases notes parked by the environment in an existing state directory.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { ExtractorError, failedExtractions, GRAPH_DEFAULTS, readExtractionPause, releaseFailed, runGraphIndex, type Extraction, type ExtractionInput, type Extractor } from '../../src/graph/index.js';
import { MIGRATIONS, migrate } from '../../src/index/index.js';
import { extractionPaused } from '../../src/librarian/index.js';
import { indexedVault } from '../helpers/indexed-vault.js';

const FILES = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`Notes/Walrus ${i}.md`, `# Walrus ${i}\nThe walrus eats fish.\n`]));

function setup(t: TestContext) {
  const { root, db, writer } = indexedVault(t, FILES);
  const run = (extractor: Extractor) => runGraphIndex({ root, db, extractor, writer, agentRoot: 'Claude', concurrency: 4 });
  return { db, run };
}

/** An extractor whose every call goes through `answer`; it counts calls. */
function scripted(answer: (input: ExtractionInput, call: number) => Extraction | Error): Extractor & { calls: number } {
  const extractor = {
    backend: 'claude-cli' as const,
    model: 'haiku',
    promptVersion: 'test-1',
    calls: 0,
    async extract(input: ExtractionInput): Promise<Extraction> {
      const outcome = answer(input, ++extractor.calls);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
  return extractor;
}

const LOGGED_OUT = () => new ExtractorError('claude-cli', 'claude-cli extraction failed: the CLI exited with 1. It said: Not logged in.', { kind: 'environment', remedy: 'the claude CLI is not logged in; run claude /login' });
const WALRUS: Extraction = { entities: [{ name: 'Walrus', type: 'topic', aliases: [], evidence: 'The walrus eats fish' }], relations: [], usage: { inputTokens: 10, outputTokens: 5, costUsd: 0 } };

test('an environment failure: one call with 4 workers, no note charged, the pause kept until a run extracts again', async (t) => {
  const { db, run } = setup(t);
  const broken = scripted(LOGGED_OUT);
  const report = await run(broken);
  assert.equal(broken.calls, 1, 'the first note goes alone; nothing starts after the failure');
  assert.deepEqual([report.processed, report.failed, report.remaining], [0, 0, 8]);
  assert.equal(report.paused?.reason, 'the claude CLI is not logged in; run claude /login');
  assert.equal(report.errors.length, 0, 'not one error per note');
  assert.equal(db.prepare('SELECT count(*) FROM extractions').pluck().get(), 0, 'no attempt recorded against any note');
  assert.match(extractionPaused(db) ?? '', /^extraction paused since \d{4}-\d\d-\d\d \d\d:\d\d UTC — the claude CLI is not logged in; run claude \/login$/);

  // Many runs of a logged-out CLI (nights of a scheduled daemon) park nothing.
  for (let i = 0; i < GRAPH_DEFAULTS.maxPermanentAttempts + 1; i++) await run(broken);
  assert.equal(db.prepare('SELECT count(*) FROM extractions').pluck().get(), 0);
  const since = readExtractionPause(db)?.since;

  const fixed = scripted(() => WALRUS);
  const after = await run(fixed);
  assert.deepEqual([after.processed, after.failed, after.remaining, fixed.calls], [8, 0, 0, 8]);
  assert.equal(after.paused, undefined);
  assert.equal(readExtractionPause(db), null, 'the pause is lifted');
  assert.ok(since);
});

test('a failure half way: notes done before it are kept, the rest wait, the in-flight ones uncharged', async (t) => {
  const { db, run } = setup(t);
  const report = await run(scripted((_input, call) => (call <= 3 ? WALRUS : LOGGED_OUT())));
  assert.ok(report.processed >= 3);
  assert.equal(report.processed + report.remaining, 8);
  assert.equal(db.prepare("SELECT count(*) FROM extractions WHERE status != 'ok'").pluck().get(), 0);
  assert.ok(report.paused);
});

test('note and transient failures: the note is charged (or retried) as before, the run goes on; --retry-failed frees parked notes', async (t) => {
  const { db, run } = setup(t);
  const refused = (input: ExtractionInput) =>
    input.path.endsWith('0.md')
      ? new ExtractorError('claude-cli', 'claude-cli extraction of "x" failed: Prompt is too long.', { kind: 'note' })
      : input.path.endsWith('1.md')
        ? new ExtractorError('claude-cli', 'overloaded', { kind: 'transient' })
        : WALRUS;
  for (let i = 0; i < GRAPH_DEFAULTS.maxPermanentAttempts; i++) await run(scripted(refused));
  const failed = failedExtractions(db, GRAPH_DEFAULTS.maxPermanentAttempts);
  assert.deepEqual(
    failed.map((note) => [note.path, note.attempts, note.parked, note.error]),
    [['Notes/Walrus 0.md', 3, true, 'claude-cli extraction of "x" failed: Prompt is too long.']],
  );
  assert.equal(readExtractionPause(db), null);
  const parkedRun = scripted(() => WALRUS);
  await run(parkedRun);
  assert.equal(parkedRun.calls, 1, 'only the transient one is tried again; the parked note waits');
  assert.equal(releaseFailed(db), 1);
  const retried = scripted(() => WALRUS);
  await run(retried);
  assert.equal(retried.calls, 1, 'after --retry-failed the parked note is tried');
  assert.equal(failedExtractions(db, GRAPH_DEFAULTS.maxPermanentAttempts).length, 0);
});

test('transient failures in a row stop the run starting notes (a hanging CLI is not waited out once per note); a success in between does not', async (t) => {
  const { db, run } = setup(t);
  const TIMEOUT = () => new ExtractorError('claude-cli', 'claude-cli extraction timed out after 180 s', { kind: 'transient' });
  const hanging = scripted(TIMEOUT);
  const report = await run(hanging);
  // The first note alone, then four workers start at once; the third failure in a row stops new starts.
  assert.equal(hanging.calls, 1 + 4);
  assert.deepEqual(report.backedOff, { failures: GRAPH_DEFAULTS.maxTransientInARow, last: 'claude-cli extraction timed out after 180 s' });
  assert.deepEqual([report.processed, report.failed, report.remaining], [0, 5, 3]);
  assert.equal(report.paused, undefined, 'not an environment pause: the next run tries again');
  assert.equal(readExtractionPause(db), null);

  const fixed = scripted(() => WALRUS);
  const after = await run(fixed);
  assert.deepEqual([after.processed, after.remaining, fixed.calls], [8, 0, 8], 'every note is tried again, the timed-out ones included');
  assert.equal(after.backedOff, undefined);

  const { run: again } = setup(t);
  const flaky = scripted((_input, call) => (call % 2 === 0 ? TIMEOUT() : WALRUS));
  const mixed = await again(flaky);
  assert.equal(flaky.calls, 8, 'a success between transient failures keeps the run going');
  assert.equal(mixed.backedOff, undefined);
});

test('migration 011 releases notes parked by a logged-out CLI or a refused key, and keeps those parked for their own reasons', () => {
  const db = new Database(':memory:');
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.name < '011'),
  );
  const insertNote = db.prepare("INSERT INTO notes (path, path_key, name_key, title, aliases, hash, mtime_ms, size, word_count, line_count) VALUES (?, ?, ?, ?, '[]', 'h', 0, 1, 1, 1)");
  const insertFailure = db.prepare(
    "INSERT INTO extractions (note_id, note_hash, backend, model, prompt_version, status, attempts, input_tokens, output_tokens, cost_usd, error, at) VALUES (?, 'h', ?, 'm', 'p', 'failed', 3, 0, 0, 0, ?, 'now')",
  );
  const rows: [string, string, string][] = [
    [
      'a.md',
      'claude-cli',
      'claude-cli extraction of "a.md" failed: the CLI exited with 1 (success). It said: Not logged in · Please run /login. This is permanent until fixed: check the CLI works on its own (`claude -p hello`) and is logged in; retrying will not help.',
    ],
    [
      'b.md',
      'anthropic',
      'anthropic extraction of "b.md" failed: the API refused the request (HTTP 401 authentication_error: invalid x-api-key). This is permanent: fix the API key (ANTHROPIC_API_KEY) or its permissions; retrying will not help.',
    ],
    ['c.md', 'anthropic', 'anthropic extraction of "c.md" failed: the API refused the request (HTTP 404 not_found_error: model: claude-nope). This is permanent: fix the model name; retrying will not help.'],
    ['d.md', 'claude-cli', 'claude-cli extraction of "d.md" failed: "claude" was not found on the PATH. This is permanent: install Claude Code'],
    [
      'e.md',
      'anthropic',
      'anthropic extraction of "e.md" failed: the API refused the request (HTTP 400 invalid_request_error: messages: text content blocks must be non-empty). This is permanent: fix the model name or request settings; retrying will not help.',
    ],
  ];
  for (const [path, backend, error] of rows) insertFailure.run(insertNote.run(path, path, path, path).lastInsertRowid, backend, error);
  assert.deepEqual(migrate(db), ['011-release-environment-failures', '012-note-ids-relations', '013-block-link-lists']);
  assert.deepEqual(db.prepare('SELECT n.path FROM extractions x JOIN notes n ON n.id = x.note_id').pluck().all(), ['e.md']);
});
