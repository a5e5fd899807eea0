import { EngramError, UsageError } from '../errors.js';
import { suggestRelations } from '../session/index.js';
import { addRelatedEntries, readNoteText } from '../vault/index.js';
import { lineDiff, OWNER } from '../writes/index.js';
import { numberValue, shownArg, type Command } from './command.js';
import { openSession } from './context.js';
import { notePath } from './related-command.js';

export const relateCommand: Command = {
  name: 'relate',
  summary: 'Suggest related: entries for a note from `engram related` (no model needed) and show the change; --apply writes them into its frontmatter, changing nothing else. Undo with `engram undo` and the run id it prints.',
  positionals: 'PATH',
  maxPositionals: 1,
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: 'how many entries to suggest, 1–20 (default 5)' },
    target: { type: 'string', multiple: true, value: 'PATH', description: 'with --apply: only this suggested note' },
    apply: { type: 'boolean', description: 'write the suggested entries into the note' },
  },
  async run(args, { env, io }) {
    const given = args.positionals[0];
    if (given === undefined) throw new UsageError('no note given: engram relate "Folder/Note.md"');
    const limit = numberValue(args.values.limit) ?? 5;
    if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw new UsageError(`--limit must be a whole number from 1 to 20, not ${shownArg(String(args.values.limit))}`);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      const engine = session.search();
      const path = notePath(session.vault, engine, given);
      const suggestions = suggestRelations(session.db, engine, path, { limit })!;
      const targets = args.values.target as string[] | undefined;
      const unknown = (targets ?? []).filter((target) => !suggestions.some((suggestion) => suggestion.path === target));
      if (unknown.length > 0) throw new UsageError(`not among the suggestions for ${path}: ${unknown.map(shownArg).join(', ')} (run without --target to see them)`);
      const chosen = targets ? suggestions.filter((suggestion) => targets.includes(suggestion.path)) : suggestions;
      const read = readNoteText(`${session.vault}/${path}`);
      if (!read.ok) throw new EngramError('NOT_FOUND', `cannot read ${path}: ${read.reason}`);
      const edit = addRelatedEntries(
        read.text,
        chosen.map((suggestion) => suggestion.entry),
      );
      if (!edit.ok) throw new EngramError('INVALID_INPUT', `${path}: ${edit.reason}`);
      let written: { journal_id: number; run_id: string } | null = null;
      if (args.values.apply && chosen.length > 0) {
        const runId = `relate-${new Date().toISOString().slice(0, 19)}`;
        written = await session.exclusive('a relation write', () => {
          // The owner's own command is their confirmation, as with `engram provision`.
          const receipt = session.writer(runId).write({
            by: OWNER,
            path,
            next: (current) => {
              const again = addRelatedEntries(
                current ?? '',
                chosen.map((suggestion) => suggestion.entry),
              );
              if (!again.ok) throw new EngramError('INVALID_INPUT', `${path}: ${again.reason}`);
              return again.text;
            },
          });
          session.indexWritten(receipt.touched);
          return { journal_id: receipt.journalId, run_id: runId };
        });
      }
      const listed = chosen.map((suggestion) => ({ path: suggestion.path, entry: suggestion.entry.link, id: suggestion.entry.id, score: suggestion.score, signals: suggestion.signals, chains: suggestion.chains }));
      if (args.values.json) {
        io.out(JSON.stringify({ path, suggestions: listed, applied: written !== null, ...(written ?? {}) }, null, 2));
        return 0;
      }
      const lines = listed.length === 0 ? [`no new related: entries to suggest for ${path}`] : listed.map((entry, i) => `${i + 1}. ${entry.entry}  ${entry.score}  (${entry.signals.join(', ')})`);
      if (listed.length > 0 && written === null) lines.push('', lineDiff(read.text, edit.text), '', `run again with --apply to write this into ${path}`);
      if (written) lines.push(`wrote ${listed.length} related: entries into ${path} (write #${written.journal_id}); undo with: engram undo ${written.run_id}`);
      io.out(lines.join('\n'));
      return 0;
    } finally {
      session.close();
    }
  },
};
