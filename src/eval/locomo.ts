/**
 * LoCoMo-format conversation logs as a dev set for session recall. Each conversation becomes a
 * folder (one person's memory); each session a note shaped as `log_session` files one (dated
 * file name, `created`, `tags: [session]`, a title, the turns as markdown); each question of
 * categories 1–4 a golden query scoped to its conversation's folder, whose expected notes are
 * the sessions holding its evidence turns. Category 5 (adversarial: no answer in the log) is
 * left out: it has no right note to find.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngramError } from '../errors.js';
import { dayOfName, isoDay } from '../search/index.js';
import type { GoldenQuery } from './golden.js';

export const LOCOMO_CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/** The folder inside a converted vault that marks it as one and holds its golden file (a dot-folder: never indexed). */
export const LOCOMO_MARKER = '.locomo';

export interface ConvertedNote {
  path: string;
  text: string;
}

export interface LocomoVault {
  notes: ConvertedNote[];
  queries: GoldenQuery[];
  /** Questions left out: adversarial ones, and any whose evidence names no session of the log. */
  skipped: number;
}

interface Turn {
  speaker: string;
  text: string;
  caption: string | null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → 2023-05-08T13:56:00; null when the text has another shape. */
export function parseLocomoDate(text: string): string | null {
  const match = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[5]!.toLowerCase());
  if (month === -1) return null;
  const hour = (Number(match[1]) % 12) + (match[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${match[6]}-${two(month + 1)}-${two(Number(match[4]))}T${two(hour)}:${match[2]}:00`;
}

/** Session numbers named by evidence ids (`D3:12` → 3); LoCoMo sometimes packs several into one string. */
export function evidenceSessions(evidence: unknown): number[] {
  const items = Array.isArray(evidence) ? evidence : [];
  const sessions = new Set<number>();
  for (const item of items) {
    if (typeof item !== 'string') continue;
    for (const match of item.matchAll(/D(\d+)\s*:\s*\d+/g)) sessions.add(Number(match[1]));
  }
  return [...sessions].sort((a, b) => a - b);
}

export function convertLocomo(raw: unknown, source: string): LocomoVault {
  if (!Array.isArray(raw)) throw new EngramError('INVALID_INPUT', `${source} is not a LoCoMo file: expected a list of conversations`);
  const notes: ConvertedNote[] = [];
  const queries: GoldenQuery[] = [];
  let skipped = 0;
  raw.forEach((item, i) => {
    const sample = item as { sample_id?: unknown; conversation?: Record<string, unknown>; qa?: unknown };
    if (typeof sample !== 'object' || sample === null || typeof sample.conversation !== 'object' || sample.conversation === null) {
      throw new EngramError('INVALID_INPUT', `${source} item ${i + 1} is not a LoCoMo conversation: it has no "conversation" mapping`);
    }
    const folder = safeName(typeof sample.sample_id === 'string' ? sample.sample_id : `conversation-${i + 1}`);
    const sessions = convertSessions(sample.conversation, folder);
    notes.push(...sessions.values());
    // The questions are asked after the conversation: "last year" in them is the year before its last session's.
    const last = Math.max(-1, ...[...sessions.values()].map((session) => dayOfName(session.path)));
    const today = last === -1 ? {} : { today: isoDay(last + 1) };
    const qa = Array.isArray(sample.qa) ? sample.qa : [];
    qa.forEach((entry, j) => {
      const q = entry as { question?: unknown; category?: unknown; evidence?: unknown };
      const category = LOCOMO_CATEGORIES[Number(q.category)];
      const expect = evidenceSessions(q.evidence)
        .map((n) => sessions.get(n)?.path)
        .filter((path): path is string => path !== undefined);
      if (category === undefined || typeof q.question !== 'string' || q.question.trim() === '' || expect.length === 0) {
        skipped++;
        return;
      }
      queries.push({ id: `${folder}-q${j + 1}`, query: q.question, expect, accept: [], tags: [], folder, category, note: null, ...today });
    });
  });
  return { notes, queries, skipped };
}

/** Session number → its note, for the `session_N` keys of one conversation. */
function convertSessions(conversation: Record<string, unknown>, folder: string): Map<number, ConvertedNote> {
  const speakers = [conversation.speaker_a, conversation.speaker_b].filter((name): name is string => typeof name === 'string');
  const out = new Map<number, ConvertedNote>();
  for (const key of Object.keys(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    if (!match || !Array.isArray(conversation[key])) continue;
    const n = Number(match[1]);
    const when = conversation[`${key}_date_time`];
    const created = typeof when === 'string' ? parseLocomoDate(when) : null;
    const turns = (conversation[key] as unknown[]).flatMap((turn): Turn[] => {
      const t = turn as { speaker?: unknown; text?: unknown; blip_caption?: unknown };
      if (typeof t !== 'object' || t === null || typeof t.text !== 'string') return [];
      return [{ speaker: typeof t.speaker === 'string' ? t.speaker : 'someone', text: t.text, caption: typeof t.blip_caption === 'string' ? t.blip_caption : null }];
    });
    const title = `${speakers.join(' and ') || 'Conversation'} — session ${n}`;
    const name = safeName(created ? `${created.slice(0, 10)} ${title}` : title);
    out.set(n, { path: `${folder}/Sessions/${name}.md`, text: sessionNote(title, created, typeof when === 'string' ? when : null, turns) });
  }
  return out;
}

function sessionNote(title: string, created: string | null, when: string | null, turns: readonly Turn[]): string {
  const frontmatter = ['---', ...(created ? [`created: ${created}`] : []), 'agent: locomo', 'tags: [session]', '---'];
  const lines = turns.map((turn) => `**${turn.speaker}:** ${turn.text.trim()}${turn.caption ? ` *(shares a photo: ${turn.caption.trim()})*` : ''}`);
  return `${frontmatter.join('\n')}\n# ${title}\n\n${when ? `${when.trim()}\n\n` : ''}${lines.join('\n\n')}\n`;
}

/** A file or folder name without the characters a vault path cannot hold. */
function safeName(name: string): string {
  return (
    name
      .replace(/[\\/:*?"<>|#^[\]]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'untitled'
  );
}

/** The LoCoMo data at a path, converted (`readLocomo`, `convertLocomo`). */
export function loadLocomo(path: string): LocomoVault {
  return convertLocomo(readLocomo(path), path);
}

/** The conversations of the LoCoMo data at a path: a `.json` file, or a folder of them (read in name order). */
export function readLocomo(path: string): unknown[] {
  if (!existsSync(path)) throw new EngramError('NOT_FOUND', `no LoCoMo data at ${path}: give a LoCoMo .json file or a folder holding one`);
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    : [path];
  if (files.length === 0) throw new EngramError('NOT_FOUND', `${path} holds no .json file; give a LoCoMo .json file or a folder holding one`);
  const all: unknown[] = [];
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new EngramError('INVALID_INPUT', `cannot read ${file} as JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
    if (!Array.isArray(raw)) throw new EngramError('INVALID_INPUT', `${file} is not a LoCoMo file: expected a list of conversations`);
    all.push(...raw);
  }
  return all;
}

/**
 * Writes the converted notes into `dir` (created), and the golden queries to
 * `dir/.locomo/golden.json`. A folder that already holds files is replaced only when it is an
 * earlier conversion (it has the marker); anything else is refused, so no user file is lost.
 */
export function writeLocomoVault(dir: string, converted: LocomoVault): string {
  const marker = join(dir, LOCOMO_MARKER);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!existsSync(marker)) throw new EngramError('CONFLICT', `${dir} is not empty and is not an earlier LoCoMo conversion; give an empty or new folder for the session notes`);
    for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  mkdirSync(marker, { recursive: true });
  for (const note of converted.notes) {
    mkdirSync(join(dir, note.path, '..'), { recursive: true });
    writeFileSync(join(dir, note.path), note.text);
  }
  const golden = join(marker, 'golden.json');
  writeFileSync(golden, JSON.stringify(converted.queries, null, 1) + '\n');
  return golden;
}
