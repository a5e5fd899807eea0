/**
 * The extraction eval: scoring by hand-made cases; the gold file's checks; the structural
 * extractor's numbers on the sample vault held by floors (CI); and the whole harness through
 * the CLI against the fake Anthropic API with canned replies — the gold itself scores 1.0, a
 * refused key stops it after one call.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { countNote, loadGraphGold, scoreGraph, validateGraphGold, type GoldNote } from '../../src/eval/index.js';
import type { ExtractedEntity, ExtractedRelation } from '../../src/graph/index.js';
import { REPO, runCli } from '../helpers/cli.js';
import { errorStep, startFakeAnthropic, toolUseReply, type FakeAnthropic, type ScriptStep } from '../helpers/fake-anthropic.js';
import { makeVault } from '../helpers/vault.js';

const GOLD_FILE = join(REPO, 'evals/graph-gold.yaml');
const VAULT = join(REPO, 'evals/vault');

/** The structural extractor (structural-2) on evals/graph-gold.yaml, measured 2026-12-01: entity F1 0.622, relation F1 0.345, person F1 0.920 (structural-1: 0.566, 0.106, 0.920). */
const FLOORS = { entityF1: 0.6, relationF1: 0.32, personF1: 0.9 };

const entity = (name: string, type: ExtractedEntity['type'], aliases: string[] = []): ExtractedEntity => ({ name, type, aliases, evidence: '' });
const relation = (from: string, kind: ExtractedRelation['relation'], to: string): ExtractedRelation => ({ from, to, relation: kind, evidence: '' });

describe('graph scoring', () => {
  const gold: GoldNote = {
    path: 'a.md',
    entities: [
      { name: 'José Núñez', type: 'person', aliases: ['Pepe'] },
      { name: 'Lumen Analytics', type: 'organization', aliases: ['Lumen'] },
      { name: 'Billing v2', type: 'project', aliases: [] },
      { name: 'Priya Raman', type: 'person', aliases: [] },
    ],
    relations: [
      { from: 'José Núñez', relation: 'works_at', to: 'Lumen Analytics' },
      { from: 'José Núñez', relation: 'works_on', to: 'Billing v2' },
      { from: 'Priya Raman', relation: 'knows', to: 'José Núñez' },
    ],
  };

  test('names match through aliases, case and diacritics; a wrong type counts for the name only', () => {
    const counts = countNote(gold, {
      entities: [entity('jose nunez', 'person'), entity('Lumen', 'organization'), entity('Billing v2', 'topic'), entity('Kafka', 'source'), entity('Lumen Analytics', 'organization')],
      relations: [relation('Pepe', 'works_at', 'Lumen'), relation('Billing v2', 'works_on', 'José Núñez'), relation('José Núñez', 'knows', 'Priya Raman'), relation('Kafka', 'uses', 'Billing v2')],
    });
    assert.deepEqual(counts.entities, { gold: 4, predicted: 5, matched: 2 }, 'each gold entity matches once');
    assert.deepEqual(counts.names, { gold: 4, predicted: 5, matched: 3 });
    assert.deepEqual(counts.byType.project, { gold: 1, predicted: 0, matched: 0 });
    assert.deepEqual(counts.byType.topic, { gold: 0, predicted: 1, matched: 0 });
    assert.deepEqual(counts.relations, { gold: 3, predicted: 4, matched: 2 }, 'works_at through aliases; knows either way; works_on reversed does not count');
    assert.deepEqual(counts.relationsAnyLabel, { gold: 3, predicted: 4, matched: 3 });
    const score = scoreGraph([counts, countNote(gold, { entities: [], relations: [] })]);
    assert.deepEqual(score.entities, { gold: 8, predicted: 5, matched: 2, precision: 0.4, recall: 0.25, f1: 0.308 });
    assert.equal(score.byType.person.recall, 0.25);
  });

  test("the gold file is checked: known types and relations, relations between the note's entities", () => {
    assert.throws(() => validateGraphGold({ notes: [{ path: 'a.md', entities: [{ name: 'X', type: 'place' }] }] }), /a\.md entities\[0\] \(X\) has type place, not one of person/);
    assert.throws(() => validateGraphGold({ notes: [{ path: 'a.md', entities: [{ name: 'X', type: 'topic' }], relations: [{ from: 'X', relation: 'uses', to: 'Y' }] }] }), /names "Y", which is not among the note's entities/);
    assert.throws(() => validateGraphGold({ notes: [] }), /non-empty `notes:` list/);
    const file = loadGraphGold(GOLD_FILE);
    assert.ok(file.notes.length >= 30, `${file.notes.length} notes`);
    assert.equal(file.vault, 'vault');
  });
});

describe('engram eval --graph', () => {
  const servers: FakeAnthropic[] = [];
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  test('the structural extractor on the sample vault holds its floors', async (t) => {
    const { home } = makeVault(t);
    const run = await runCli(['eval', '--graph', GOLD_FILE, '--json', '--min-entity-f1', String(FLOORS.entityF1), '--min-relation-f1', String(FLOORS.relationF1)], { ENGRAM_HOME: home, ENGRAM_EXTRACTOR: 'structural' });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.extractor, 'structural');
    assert.ok(report.notes >= 30);
    assert.ok(report.score.entities.f1 >= FLOORS.entityF1, JSON.stringify(report.score.entities));
    assert.ok(report.score.relations.f1 >= FLOORS.relationF1, JSON.stringify(report.score.relations));
    assert.ok(report.score.byType.person.f1 >= FLOORS.personF1, JSON.stringify(report.score.byType.person));
    assert.equal(report.costUsd, 0);
    assert.deepEqual(report.failed, []);

    const strict = await runCli(['eval', '--graph', GOLD_FILE, '--min-entity-f1', '0.99'], { ENGRAM_HOME: home, ENGRAM_EXTRACTOR: 'structural' });
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /^below floor: entity F1 0\.\d+ is below 0\.99$/m);
    assert.match(strict.stdout, /^entities \(name \+ type\) +289 /m);
  });

  test('anthropic against the fake API, answering each note with its gold: every score is 1, cost and tokens add up; a refused key stops after one call', async (t) => {
    const gold = loadGraphGold(GOLD_FILE);
    const byPath = new Map(gold.notes.map((note) => [note.path, note]));
    const canned: ScriptStep = (body, request) => {
      const path = /^path: (.*)$/m.exec(String(body.messages?.[0]?.content ?? ''))?.[1] ?? '';
      const note = byPath.get(path);
      const reply = note ? { entities: note.entities.map((e) => ({ ...e, evidence: e.name })), relations: note.relations.map((r) => ({ ...r, evidence: '' })) } : { entities: [], relations: [] };
      return toolUseReply(reply, { input_tokens: 1000, output_tokens: 200 })(body, request);
    };
    const server = await startFakeAnthropic(gold.notes.map(() => canned));
    servers.push(server);
    const { home } = makeVault(t);
    const env = { ENGRAM_HOME: home, ENGRAM_EXTRACTOR: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: server.url, ENGRAM_EXTRACT_MODEL: 'claude-haiku-test' };
    const run = await runCli(['eval', '--graph', GOLD_FILE, '--vault', VAULT, '--json'], env);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(server.requests.length, gold.notes.length);
    assert.deepEqual([report.extractor, report.model], ['anthropic', 'claude-haiku-test']);
    for (const key of ['entities', 'names', 'relations', 'relationsAnyLabel']) assert.equal(report.score[key].f1, 1, `${key}: ${JSON.stringify(report.score[key])}`);
    assert.deepEqual([report.inputTokens, report.outputTokens], [1000 * gold.notes.length, 200 * gold.notes.length]);
    assert.equal(Math.round(report.costUsd * 1e6), Math.round(gold.notes.length * (1000 * 1 + 200 * 5)));

    const refused = await startFakeAnthropic([errorStep(401, 'authentication_error', 'invalid x-api-key')]);
    servers.push(refused);
    const stopped = await runCli(['eval', '--graph', GOLD_FILE, '--vault', VAULT], { ...env, ANTHROPIC_BASE_URL: refused.url });
    assert.equal(stopped.code, 1);
    assert.equal(refused.requests.length, 1, 'one call, not one per note');
    assert.match(stopped.stdout, /^stopped: the Anthropic API key is invalid or revoked; set a valid ANTHROPIC_API_KEY$/m);
    assert.match(stopped.stderr, /^eval: extraction paused — the Anthropic API key is invalid/m);
  });
});
