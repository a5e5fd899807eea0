/**
 * Tasks in the Obsidian Tasks plugin's emoji format:
 * `- [ ] Ship it ⏫ 🔁 every week ➕ 2026-03-01 🛫 2026-03-02 ⏳ 2026-03-03 📅 2026-03-04 ✅ 2026-03-05`.
 */

export type TaskPriority = 'highest' | 'high' | 'medium' | 'low' | 'lowest';

export interface Task {
  /** 1-based line. */
  line: number;
  /** The character between the brackets: ` ` to do, `x` done, `/` in progress, `-` cancelled … */
  status: string;
  /** The description with the emoji fields taken out. */
  text: string;
  due: string | null;
  scheduled: string | null;
  start: string | null;
  created: string | null;
  done: string | null;
  cancelled: string | null;
  priority: TaskPriority | null;
  recurrence: string | null;
}

const TASK = /^[ \t]*(?:>[ \t]*)*(?:[-*+]|\d+[.)])[ \t]+\[(.)\][ \t]+(.*)$/u;
const DATE_FIELDS = {
  '📅': 'due',
  '🗓': 'due',
  '⏳': 'scheduled',
  '🛫': 'start',
  '➕': 'created',
  '✅': 'done',
  '❌': 'cancelled',
} as const;
const PRIORITIES: Record<string, TaskPriority> = { '🔺': 'highest', '⏫': 'high', '🔼': 'medium', '🔽': 'low', '⏬': 'lowest' };
const DATE_FIELD = /(📅|🗓️?|⏳|🛫|➕|✅|❌)\uFE0F?\s*(\d{4}-\d{2}-\d{2})/gu;
const PRIORITY = /(🔺|⏫|🔼|🔽|⏬)\uFE0F?/u;
const RECURRENCE = /🔁\uFE0F?\s*([^📅🗓⏳🛫➕✅❌🔺⏫🔼🔽⏬^]+)/u;

/** A task on one code-masked line, or null. */
export function parseTask(line: string, lineNumber: number): Task | null {
  const match = TASK.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (!match) return null;
  let text = match[2]!;
  const task: Task = {
    line: lineNumber,
    status: match[1]!,
    text: '',
    due: null,
    scheduled: null,
    start: null,
    created: null,
    done: null,
    cancelled: null,
    priority: null,
    recurrence: null,
  };
  text = text.replace(DATE_FIELD, (_all, emoji: string, date: string) => {
    const field = DATE_FIELDS[emoji.replace('\uFE0F', '') as keyof typeof DATE_FIELDS];
    if (field) task[field] = date;
    return ' ';
  });
  const priority = PRIORITY.exec(text);
  if (priority) {
    task.priority = PRIORITIES[priority[1]!] ?? null;
    text = text.replace(PRIORITY, ' ');
  }
  const recurrence = RECURRENCE.exec(text);
  if (recurrence) {
    task.recurrence = recurrence[1]!.trim();
    text = text.replace(RECURRENCE, ' ');
  }
  task.text = text.replace(/\s+/g, ' ').trim();
  return task;
}
