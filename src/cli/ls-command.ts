import { LIST_NOTES_DEFAULTS, listNotes, type ListedNote } from '../librarian/index.js';
import { parseDateBound } from '../search/index.js';
import { UsageError } from '../errors.js';
import type { Command } from './command.js';
import { openSession } from './context.js';

export const lsCommand: Command = {
  name: 'ls',
  summary: 'List the indexed notes in path order, a page at a time: size, modified time, blocks, vectors (fresh/stale), extracted by the graph.',
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: `notes per page, 1–${LIST_NOTES_DEFAULTS.maxLimit} (default ${LIST_NOTES_DEFAULTS.limit})` },
    cursor: { type: 'string', value: 'CURSOR', description: 'continue after the previous page (the cursor it printed last)' },
    folder: { type: 'string', multiple: true, value: 'FOLDER', description: 'only notes under this folder (whole segments, any depth, case-insensitive)' },
    'exclude-folder': { type: 'string', multiple: true, value: 'FOLDER', description: 'leave out notes under this folder' },
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'only notes with this tag (`project` also matches `project/atlas`)' },
    'all-tags': { type: 'boolean', description: 'require every --tag instead of any' },
    type: { type: 'string', multiple: true, value: 'TYPE', description: 'only notes whose frontmatter type (or kind) is this' },
    'modified-after': { type: 'string', value: 'DATE', description: 'only notes modified on or after this date (YYYY-MM-DD or ISO time)' },
    'modified-before': { type: 'string', value: 'DATE', description: 'only notes modified on or before this date' },
  },
  run(args, { env, io }) {
    const { values } = args;
    const raw = values.limit as string | undefined;
    const limit = raw === undefined ? LIST_NOTES_DEFAULTS.limit : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_NOTES_DEFAULTS.maxLimit) throw new UsageError(`--limit must be a whole number from 1 to ${LIST_NOTES_DEFAULTS.maxLimit}, not "${raw}"`);
    const filters = {
      folders: (values.folder as string[] | undefined) ?? [],
      excludeFolders: (values['exclude-folder'] as string[] | undefined) ?? [],
      tags: (values.tag as string[] | undefined) ?? [],
      tagMode: values['all-tags'] ? ('all' as const) : ('any' as const),
      types: (values.type as string[] | undefined) ?? [],
      ...dateOption('modifiedAfter', '--modified-after', values['modified-after'] as string | undefined),
      ...dateOption('modifiedBefore', '--modified-before', values['modified-before'] as string | undefined),
    };
    const session = openSession(values.vault as string | undefined, env);
    try {
      const listed = listNotes(session.db, { filters, limit, cursor: (values.cursor as string | undefined) ?? null });
      if (values.json) io.out(JSON.stringify({ notes: listed.notes, total: listed.total, next_cursor: listed.nextCursor }, null, 2));
      else io.out(describeListing(listed.notes, listed.total, listed.nextCursor));
      return 0;
    } finally {
      session.close();
    }
  },
};

function describeListing(notes: readonly ListedNote[], total: number, next: string | null): string {
  const lines = notes.map((note) => {
    const vectors = note.vectors.fresh + note.vectors.stale === 0 ? 'no vectors' : `vectors ${note.vectors.fresh} fresh${note.vectors.stale > 0 ? `, ${note.vectors.stale} stale` : ''}`;
    return `${note.path}  ${note.size} B  ${note.modified.slice(0, 16).replace('T', ' ')}  ${note.blocks} blocks  ${vectors}${note.extracted ? '  extracted' : ''}`;
  });
  return [...lines, `${notes.length} of ${total} notes${next ? `; next page: engram ls --cursor ${next}` : ''}`].join('\n');
}

/** An upper bound (`--modified-before`) on a bare date takes the whole day. */
function dateOption(key: 'modifiedAfter' | 'modifiedBefore', name: string, raw: string | undefined): Record<string, number> {
  if (raw === undefined) return {};
  const ms = parseDateBound(raw, { endOfDay: key === 'modifiedBefore' });
  if (ms === null) throw new UsageError(`${name} must be a date like 2026-03-14 or an ISO time, not "${raw}"`);
  return { [key]: ms };
}
