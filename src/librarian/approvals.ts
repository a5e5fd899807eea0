/**
 * Approvals made in Obsidian: each pending proposal in `Claude/Librarian.md` is a task line.
 * Ticking it (`- [x]`) approves; Obsidian's cancelled mark (`- [-]`) rejects. The next sweep (or
 * `engram librarian --apply-ticked`) decides each ticked line through the same code as the CLI
 * and rewrites the line with the outcome, so a line is acted on once. Pure: text in, ticks and
 * rewritten text out; the phase in `phases/approvals.ts` does the deciding.
 *
 * A line names what was reviewed (the note and its target folder, or the two entity names), not
 * just an id: a tick on a line whose proposal has since changed, been decided or expired is
 * reported and not applied. A tick made on a phone over a synced vault is read the same way.
 */

export type ProposalKind = 'filing' | 'merge';

/** A pending proposal as the report lists it, and as a tick is checked against. */
export interface ListedProposal {
  kind: ProposalKind;
  id: number;
  /** What the line says was reviewed: `[[note]] → \`target/\`` or `"loser" → "winner"`. */
  subject: string;
}

export interface Tick {
  kind: ProposalKind;
  id: number;
  decision: 'approve' | 'reject';
  /** The line after `#id: `: the subject the human reviewed, then its details. */
  text: string;
  /** 0-based line index in the report, and the line as read (to find it again if lines moved). */
  line: number;
  raw: string;
}

export interface TickOutcome {
  tick: Tick;
  /** Past tense, shown on the line: `applied`, `rejected`, `not applied: …`. */
  outcome: string;
}

/** The subject of a filing proposal's line. */
export function filingSubject(path: string, target: string): string {
  return `[[${path.replace(/\.md$/i, '')}]] → \`${target}/\``;
}

/** The subject of a merge proposal's line. */
export function mergeSubject(loser: string, winner: string): string {
  return `"${loser}" → "${winner}"`;
}

/** A proposal's task line: unticked, with what it is, the evidence, and how to decide it. */
export function proposalLine(proposal: ListedProposal, detail: string): string {
  return `- [ ] ${proposal.kind} #${proposal.id}: ${proposal.subject} (${detail})`;
}

export const TICK_HINT = 'Tick a proposal (`[x]`) to approve it, or mark it `[-]` to reject it: the next sweep applies it (`engram librarian --apply-ticked` at once).';

/** Lines already decided carry this after their text. */
const DECIDED = ' — **';
const TASK = /^\s*[-*+] \[([xX-])\] (filing|merge) #(\d+): (.*)$/;

/** A ticked, undecided proposal line's parts, or null. */
function parseTick(raw: string, line: number): Tick | null {
  const text = raw.replace(/\r$/, '');
  if (text.includes(DECIDED)) return null;
  const match = TASK.exec(text);
  if (!match) return null;
  return { kind: match[2] as ProposalKind, id: Number(match[3]), decision: match[1] === '-' ? 'reject' : 'approve', text: match[4]!, line, raw };
}

/** The ticked proposal lines of a report that no sweep has decided yet. */
export function readTicks(text: string): Tick[] {
  return text
    .split('\n')
    .map(parseTick)
    .filter((tick): tick is Tick => tick !== null);
}

/**
 * Where a tick's line is now: where it was read; else the same text elsewhere (lines were added
 * above); else the nearest undecided line ticking the same proposal the same way (a move the
 * tick approved relinks the report's own wikilinks); -1 when it is gone.
 */
function locate(lines: readonly string[], tick: Tick): number {
  if (lines[tick.line] === tick.raw) return tick.line;
  const same = lines.indexOf(tick.raw);
  if (same !== -1) return same;
  let best = -1;
  lines.forEach((raw, index) => {
    const other = parseTick(raw, index);
    if (other && other.kind === tick.kind && other.id === tick.id && other.decision === tick.decision && (best === -1 || Math.abs(index - tick.line) < Math.abs(best - tick.line))) best = index;
  });
  return best;
}

/**
 * Why a tick must not be acted on, or null when it may: its proposal is still pending and is
 * what the line says was reviewed.
 */
export function tickProblem(tick: Pick<Tick, 'kind' | 'id' | 'text'>, pending: readonly ListedProposal[], statusOf: (kind: ProposalKind, id: number) => string | null): string | null {
  const current = pending.find((proposal) => proposal.kind === tick.kind && proposal.id === tick.id);
  if (current === undefined) {
    const status = statusOf(tick.kind, tick.id);
    return status === null ? `no ${tick.kind} proposal #${tick.id}` : `the proposal is ${status}, no longer pending`;
  }
  // The subject is compared as written, not parsed out: note and entity names hold brackets and dashes.
  if (tick.text !== current.subject && !tick.text.startsWith(`${current.subject} (`)) return `the proposal changed since this line was written (now ${current.subject}); see the newest sweep`;
  return null;
}

/**
 * The report with each decided line marked by its outcome and when; the tick stays as the human
 * wrote it (`locate` finds the line if the report changed meanwhile). A line gone is left alone:
 * its decision is in the journal and the sweep's summary.
 */
export function markOutcomes(text: string, outcomes: readonly TickOutcome[], at: string): string {
  const lines = text.split('\n');
  for (const { tick, outcome } of outcomes) {
    const index = locate(lines, tick);
    if (index === -1) continue;
    const current = lines[index]!;
    const cr = current.endsWith('\r') ? '\r' : '';
    lines[index] = `${current.replace(/\r$/, '')}${DECIDED}${outcome}** ${at}${cr}`;
  }
  return lines.join('\n');
}

/** Any undecided task line of a proposal, ticked or not. */
const LISTED = /^(\s*[-*+] \[)[ xX-](\] (filing|merge) #(\d+): .*)$/;

/**
 * The report after a proposal was decided somewhere else (the local page): each of its
 * undecided lines gets the box of that decision (`x` approve, `-` reject) and the outcome, so a
 * later tick on it is not read as a new decision and the report says what happened.
 */
export function markDecidedElsewhere(text: string, decided: { kind: ProposalKind; id: number; decision: 'approve' | 'reject'; outcome: string; where: string }, at: string): string {
  const box = decided.decision === 'approve' ? 'x' : '-';
  return text
    .split('\n')
    .map((raw) => {
      const cr = raw.endsWith('\r') ? '\r' : '';
      const line = raw.replace(/\r$/, '');
      const match = LISTED.exec(line);
      if (!match || line.includes(DECIDED) || match[3] !== decided.kind || Number(match[4]) !== decided.id) return raw;
      return `${match[1]}${box}${match[2]}${DECIDED}${decided.outcome}** ${at} (${decided.where})${cr}`;
    })
    .join('\n');
}
