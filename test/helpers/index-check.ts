/**
 * Checks that a state database holds what the vault holds, and nothing else: every row of the
 * search tables belongs to an indexed note, every term id a note names is in the vocabulary.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type Database from 'better-sqlite3';
import { FIELDS, loadTermStats } from '../../src/search/index.js';
import { REPO } from './cli.js';

/** Every note's term statistics by path, as readable `term|field|tf` rows (asserts every id is known). */
export function termRows(db: Database.Database): Record<string, string[]> {
  const { vocabulary, notes } = loadTermStats(db);
  const terms = new Map([...vocabulary].map(([term, id]) => [id, term]));
  const paths = new Map(db.prepare('SELECT id, path FROM notes').raw().all() as [number, string][]);
  const out: Record<string, string[]> = {};
  for (const { noteId, stats } of notes) {
    const rows: string[] = [];
    stats.termIds.forEach((id, i) => {
      const term = terms.get(id);
      assert.ok(term !== undefined, `note ${noteId} names term id ${id}, which is not in the vocabulary`);
      rows.push(`${term}|${FIELDS[stats.fields[i]!]}|${stats.tfs[i]}`);
    });
    out[paths.get(noteId) ?? `orphan #${noteId}`] = rows.sort();
  }
  return out;
}

/** Rows of the search and note tables that belong to no indexed note (should be none). */
export function orphanRows(db: Database.Database): Record<string, number> {
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    note_terms: count('SELECT count(*) FROM note_terms WHERE note_id NOT IN (SELECT id FROM notes)'),
    notes_without_terms: count('SELECT count(*) FROM notes WHERE id NOT IN (SELECT note_id FROM note_terms)'),
    blocks: count('SELECT count(*) FROM blocks WHERE note_id NOT IN (SELECT id FROM notes)'),
    links: count('SELECT count(*) FROM links WHERE note_id NOT IN (SELECT id FROM notes)'),
    vectors: count('SELECT count(*) FROM vectors WHERE note_id NOT IN (SELECT id FROM notes)'),
    foreign_key_violations: (db.prepare('PRAGMA foreign_key_check').all() as unknown[]).length,
  };
}

export interface Spawned {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `engram …` as a real child process and resolves when it exits. */
export function runEngram(argv: string[], env: Record<string, string>): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `${REPO}src/cli/main.ts`, ...argv], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENGRAM_OFFLINE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
