/**
 * The report the human reads in Obsidian: one dated section per sweep at the top of
 * `Claude/Librarian.md`, newest first, the last 30 kept. Pure: a sweep report in, markdown out.
 */
import { filingSubject, mergeSubject, proposalLine, TICK_HINT } from './approvals.js';
import type { SweepReport } from './sweep.js';

export const LIBRARIAN_REPORT_DEFAULTS = {
  keepSections: 30,
  header: '# Librarian\n\nCaretaker sweep reports, newest first. Each names its run id: `engram undo RUN_ID` (or the `undo_run` tool) reverts every change of that sweep; `engram undo move:N` one move.\n',
} as const;

const SECTION = /^## Sweep /m;

export function renderSection(report: SweepReport): string {
  const at = report.startedAt.slice(0, 16).replace('T', ' ');
  const lines = [`## Sweep ${at} UTC${report.dryRun ? ' (dry run)' : ''}`, '', `run \`${report.runId}\` · ${(report.durationMs / 1000).toFixed(1)} s`, ''];
  for (const phase of report.phases) {
    if (phase.name === 'health' || phase.name === 'report') continue;
    // Most sweeps find nothing ticked: no line for that.
    if (phase.name === 'approvals' && phase.status !== 'failed' && !phase.counts.ticked) continue;
    const cost = phase.costUsd > 0 ? ` · $${phase.costUsd.toFixed(4)}` : phase.estimatedCostUsd > 0 ? ` · est. $${phase.estimatedCostUsd.toFixed(4)}` : '';
    lines.push(`- **${phase.name}**: ${phase.status === 'failed' ? `FAILED — ${phase.error}` : phase.summary}${cost}`);
  }
  const health = report.health;
  if (health.length > 0) {
    lines.push(`- **health**: ${health.map((check) => `${check.name} ${check.error ? 'failed' : check.count}${check.ok ? ' ✓' : ''}`).join(' · ')}`);
  }
  lines.push(`- **errors**: ${report.errors.length === 0 ? 'none' : report.errors.length}`);
  if (report.moves.length > 0) {
    lines.push('', '### Moves', '');
    for (const move of report.moves) {
      lines.push(`- ${link(move.to)} from \`${move.from}\` (share ${move.share.toFixed(2)}; ${move.rewritten} notes relinked) — undo: \`engram undo move:${move.moveId}\``);
    }
  }
  if (report.proposals.organize.length + report.proposals.merges.length > 0) {
    lines.push('', '### Proposals', '', TICK_HINT, '');
    for (const p of report.proposals.organize) {
      lines.push(proposalLine({ kind: 'filing', id: p.id, subject: filingSubject(p.path, p.target) }, `share ${p.share.toFixed(2)}; ${p.reason}; or \`organize_vault\` apply [${p.id}]`));
    }
    for (const p of report.proposals.merges) {
      lines.push(proposalLine({ kind: 'merge', id: p.id, subject: mergeSubject(p.loser, p.winner) }, `${p.type}; ${p.reason}; ${p.verdict}; or \`engram graph consolidate --apply ${p.id}\``));
    }
    if (report.proposals.more > 0) lines.push(`- … and ${report.proposals.more} more pending (see \`organize_vault\` and \`engram graph consolidate\`)`);
  }
  const findings = health.filter((check) => !check.ok || check.error);
  if (findings.length > 0) {
    lines.push('', '### Health findings', '');
    for (const check of findings) {
      lines.push(`- ${check.name}: ${check.error ? `check failed — ${check.error}` : check.count}`);
      for (const example of check.examples) lines.push(`  - ${example}`);
    }
  }
  if (report.errors.length > 0) {
    lines.push('', '### Errors', '');
    for (const error of report.errors.slice(0, 10)) lines.push(`- ${error}`);
  }
  return lines.join('\n') + '\n';
}

/** The report note with `section` on top and at most `keep` sections in all. */
export function mergeReport(current: string | null, section: string, keep: number = LIBRARIAN_REPORT_DEFAULTS.keepSections): string {
  const old = current ?? '';
  const first = old.search(SECTION);
  const sections =
    first === -1
      ? []
      : old
          .slice(first)
          .split(/\n(?=## Sweep )/)
          .map((part) => part.trimEnd() + '\n');
  return [LIBRARIAN_REPORT_DEFAULTS.header, section, ...sections.slice(0, keep - 1)].join('\n');
}

function link(path: string): string {
  return `[[${path.replace(/\.md$/i, '')}]]`;
}
