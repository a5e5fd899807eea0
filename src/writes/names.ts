/**
 * Safe note file names: what Obsidian and the three desktop file systems accept. Pure.
 */

/** Characters Obsidian refuses in file names, path separators, and control/format characters. */
const FORBIDDEN = /[*"\\/<>:|?#^[\]\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
/** Device names Windows reserves, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

export const NOTE_NAME_DEFAULTS = {
  /** Longest file name (without `.md`) we create, in characters. */
  maxNameChars: 120,
  /** …and in UTF-8 bytes: file systems limit names to 255 bytes, and ` 99.md` must still fit. */
  maxNameBytes: 200,
} as const;

export type NameResult = { ok: true; name: string } | { ok: false; reason: string };

/** A title as a file name (without `.md`), or why it cannot be one. */
export function safeNoteName(title: string): NameResult {
  const name = title.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name === '') return { ok: false, reason: 'the title is empty; give the note a title' };
  // A path first: `../../Projects/X` starts with a dot too, but the dot is not what is wrong.
  if (/[\\/]/.test(name)) return { ok: false, reason: pathInName(name) };
  if (/^\.+$/.test(name)) return { ok: false, reason: `"${name}" is only dots; give the note a real title` };
  if (name.startsWith('.')) return { ok: false, reason: `"${name}" starts with a dot, which hides the note; drop the leading dot` };
  const bad = FORBIDDEN.exec(name);
  if (bad) {
    const shown = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/.test(bad[0]) ? `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : bad[0];
    return { ok: false, reason: `the title contains "${shown}", which note names cannot hold (* " \\ / < > : | ? # ^ [ ] and control characters); rephrase it` };
  }
  if (RESERVED.test(name)) return { ok: false, reason: `"${name}" is a name Windows reserves for devices; choose another title` };
  if (Array.from(name).length > NOTE_NAME_DEFAULTS.maxNameChars) return { ok: false, reason: `the title is ${Array.from(name).length} characters; keep it under ${NOTE_NAME_DEFAULTS.maxNameChars}` };
  if (Buffer.byteLength(name) > NOTE_NAME_DEFAULTS.maxNameBytes) return { ok: false, reason: `the title takes ${Buffer.byteLength(name)} bytes as a file name; shorten it (at most ${NOTE_NAME_DEFAULTS.maxNameBytes})` };
  // A percent-escape could decode to a separator or a dot segment in a tool that decodes paths.
  if (/%[0-9a-f]{2}/i.test(name)) return { ok: false, reason: 'the title contains a percent-escape such as %2F; write the character itself or rephrase' };
  if (/[. ]$/.test(name)) return { ok: false, reason: 'the title ends with a dot or space, which Windows drops; remove it' };
  return { ok: true, name };
}

/** Why a title holding `/` or `\` is refused: a name is one file name, never a path. */
function pathInName(name: string): string {
  const segments = name.split(/[\\/]/).map((segment) => segment.trim());
  const last = segments.filter((segment) => segment !== '' && !/^\.+$/.test(segment)).pop();
  const looksLikePath = segments.some((segment) => /^\.+$/.test(segment));
  const example = looksLikePath && last !== undefined ? `, such as "${last}"` : '';
  return `the title "${name}" holds a path separator ("/" or "\\"); a note's name cannot hold a path (/, \\ or ..): give the name alone${example}, without folders`;
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

/**
 * Why an agent may not create a note at `path` (vault-relative, through the path gate), or null:
 * the title rules apply to its file name and to each folder the write would create, and the
 * extension is `.md` exactly — `CON.md`, `x.MD` or `Graph%2fx.md` would be a note some tool or
 * file system reads differently.
 */
export function newNotePathProblem(path: string, folderExists: (folder: string) => boolean): string | null {
  const segments = path.split('/');
  const file = segments.pop()!;
  if (!file.endsWith('.md')) {
    return file.toLowerCase().endsWith('.md') ? `"${path}" has the extension "${file.slice(-3)}"; write it as .md ("${file.slice(0, -3)}.md")` : `"${path}" does not end in .md; a note is a .md file`;
  }
  const names = [file.slice(0, -3)];
  segments.forEach((_, i) => {
    if (!folderExists(segments.slice(0, i + 1).join('/'))) names.push(segments[i]!);
  });
  for (const [i, name] of names.entries()) {
    // Before the title rules, which trim: `spaces /x.md` would make a folder named "spaces ".
    if (i > 0 && /[\s.]$/.test(name)) {
      const fixed = path
        .split('/')
        .map((segment, at, all) => (at < all.length - 1 ? segment.replace(/[\s.]+$/, '') : segment))
        .join('/');
      return `"${path}" cannot be created: the folder name "${name}" ends with ${/\s$/.test(name) ? 'a space' : 'a dot'}, which Windows cannot hold (Obsidian and sync there would not see the note); remove it, e.g. "${fixed}"`;
    }
    const checked = safeNoteName(name);
    if (!checked.ok) return `"${path}" cannot be created: ${checked.reason.replace(/^the title/, `the name "${name}"`)}`;
  }
  return null;
}
