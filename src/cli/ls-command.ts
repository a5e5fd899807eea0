import { LIST_NOTES_DEFAULTS, listNotes, type ListedNote } from '../librarian/index.js';
import { refuseEmptyValue, type Command } from './command.js';
import { openSession } from './context.js';
import { FILTER_OPTIONS, filtersFrom, integerOption } from './filter-options.js';

export const lsCommand: Command = {
  name: 'ls',
  summary: 'List the indexed notes in path order, a page at a time: size, modified time, blocks, vectors (fresh/stale), extracted by the graph.',
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: `notes per page, 1–${LIST_NOTES_DEFAULTS.maxLimit} (default ${LIST_NOTES_DEFAULTS.limit})` },
    cursor: { type: 'string', value: 'CURSOR', description: 'continue after the previous page (the cursor it printed last)' },
    ...FILTER_OPTIONS,
  },
  run(args, { env, io }) {
    const { values } = args;
    const limit = values.limit === undefined ? LIST_NOTES_DEFAULTS.limit : integerOption('--limit', values.limit as string, 1, LIST_NOTES_DEFAULTS.maxLimit);
    const filters = filtersFrom(values);
    // An empty cursor (a shell variable that was not set) is no page to continue from: bad usage, not a bad cursor.
    refuseEmptyValue('cursor', values.cursor, { noun: 'next-page cursor', example: 'cDpBdGxhcy5tZA' });
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
