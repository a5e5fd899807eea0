import { readStatus, type StatusDoc } from '../index/index.js';
import type { Command } from './command.js';
import { openVault } from './context.js';

export const statusCommand: Command = {
  name: 'status',
  summary: 'Index health: counts, link resolution, skipped files and warnings.',
  options: {},
  run(args, { env, io }) {
    const opened = openVault(args.values.vault as string | undefined, env);
    try {
      const doc = readStatus(opened.state.db, { vault: opened.vault, stateDir: opened.stateDir });
      io.out(args.values.json ? JSON.stringify(doc, null, 2) : describeStatus(doc));
      return 0;
    } finally {
      opened.state.db.close();
    }
  },
};

export function describeStatus(doc: StatusDoc): string {
  const lines = [
    `vault        ${doc.vault}`,
    `state        ${doc.state_dir}`,
    `indexed at   ${doc.last_indexed_at ?? 'never'}`,
    `notes        ${doc.notes} (${doc.blocks} blocks, ${doc.words} words)`,
    `links        ${doc.links.total} (${doc.links.resolved} resolved, ${doc.links.to_attachments} of them to attachments; ${doc.links.unresolved} unresolved)`,
    `tags         ${doc.tags}`,
    `tasks        ${doc.tasks.total} (${doc.tasks.open} open, ${doc.tasks.done} done)`,
    `attachments  ${doc.attachments}`,
  ];
  if (doc.skipped.length > 0) {
    lines.push(`skipped      ${doc.skipped.length}`);
    for (const entry of doc.skipped.slice(0, 20)) lines.push(`  ${entry.path}: ${entry.reason}`);
  }
  if (doc.warnings.length > 0) {
    lines.push(`warnings     ${doc.warnings.length}`);
    for (const warning of doc.warnings) lines.push(`  ${warning}`);
  }
  return lines.join('\n');
}
