import { isAbsolute, relative } from 'node:path';
import { EngramError, UsageError } from '../errors.js';
import type { Command } from './command.js';
import { openSession } from './context.js';
import { describeResponse } from './search-command.js';

export const relatedCommand: Command = {
  name: 'related',
  summary: 'Notes related to a note by meaning: its nearest notes by vector, each with the section that matched.',
  positionals: 'PATH',
  maxPositionals: 1,
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: 'how many notes, 1–100 (default 10)' },
    folder: { type: 'string', multiple: true, value: 'PATH', description: 'only notes in this folder (and below)' },
  },
  run(args, { env, io }) {
    const given = args.positionals[0];
    if (given === undefined) throw new UsageError('no note given: engram related "Folder/Note.md"');
    const limit = args.values.limit === undefined ? 10 : Number(args.values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit must be a whole number from 1 to 100, not "${String(args.values.limit)}"`);
    const session = openSession(args.values.vault as string | undefined, env);
    try {
      // An absolute path must lie inside the vault; anything else is vault-relative.
      const path = isAbsolute(given) ? relative(session.vault, given).replace(/\\/g, '/') : given.replace(/\\/g, '/').replace(/^\.\//, '');
      if (path.startsWith('..')) throw new UsageError(`"${given}" is outside the vault ${session.vault}`);
      const engine = session.search();
      if (!engine.metas.some((meta) => meta.path.normalize('NFC') === path.normalize('NFC'))) {
        throw new EngramError('NOT_FOUND', `no indexed note at "${path}"; give a vault-relative path such as Projects/Atlas.md (run \`engram index\` if it is new)`);
      }
      const folders = (args.values.folder as string[] | undefined) ?? [];
      const hits = engine.related(path, limit, { folders });
      if (hits === null) {
        throw new EngramError('NOT_FOUND', `"${path}" has no ${env.model} vector yet; run \`engram index\` with the model installed (engram status shows why it is missing)`);
      }
      const response = { query: path, mode: 'semantic' as const, mode_reason: `nearest notes to ${path} by ${env.model} vectors`, results: hits, total_matches: hits.length, notices: [] };
      io.out(args.values.json ? JSON.stringify(response, null, 2) : describeResponse(response));
      return 0;
    } finally {
      session.close();
    }
  },
};
