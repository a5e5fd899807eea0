/**
 * Safe note file names: what Obsidian and the three desktop file systems accept. Pure.
 */

/** Characters Obsidian refuses in file names (plus the path separators and NUL). */
const FORBIDDEN = /[*"\\/<>:|?#^[\]\u0000-\u001f]/;
/** Device names Windows reserves, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

export const DEFAULTS = {
  /** Longest file name (without `.md`) we create: leaves room in 255-byte name limits. */
  maxNameChars: 120,
} as const;

export type NameResult = { ok: true; name: string } | { ok: false; reason: string };

/** A title as a file name (without `.md`), or why it cannot be one. */
export function safeNoteName(title: string): NameResult {
  const name = title.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name === '') return { ok: false, reason: 'the title is empty; give the note a title' };
  if (/^\.+$/.test(name)) return { ok: false, reason: `"${name}" is only dots; give the note a real title` };
  if (name.startsWith('.')) return { ok: false, reason: `"${name}" starts with a dot, which hides the note; drop the leading dot` };
  const bad = FORBIDDEN.exec(name);
  if (bad) return { ok: false, reason: `the title contains "${bad[0] === '\u0000' ? 'NUL' : bad[0]}", which note names cannot hold (* " \\ / < > : | ? # ^ [ ]); rephrase it` };
  if (RESERVED.test(name)) return { ok: false, reason: `"${name}" is a name Windows reserves for devices; choose another title` };
  if (Array.from(name).length > DEFAULTS.maxNameChars) return { ok: false, reason: `the title is ${Array.from(name).length} characters; keep it under ${DEFAULTS.maxNameChars}` };
  if (/[. ]$/.test(name)) return { ok: false, reason: 'the title ends with a dot or space, which Windows drops; remove it' };
  return { ok: true, name };
}

/** `Folder/Name.md`, then `Folder/Name 2.md`, `Folder/Name 3.md` … — the first that `exists` says is free. */
export function freeNotePath(folder: string, name: string, exists: (path: string) => boolean): string {
  const base = folder === '' ? name : `${folder}/${name}`;
  if (!exists(`${base}.md`)) return `${base}.md`;
  for (let n = 2; ; n++) {
    const candidate = `${base} ${n}.md`;
    if (!exists(candidate)) return candidate;
  }
}
