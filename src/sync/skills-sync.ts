/**
 * Copying Engram's skills (`skills/<name>/…`) into Claude Code's skills folder additively: a
 * missing skill is installed, an identical one left alone, a changed one reported as drift and
 * overwritten only with `force`. Files of the user's own in a skill folder are never removed.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../writes/index.js';

export interface SkillState {
  name: string;
  status: 'installed' | 'missing' | 'drift' | 'updated';
  /** Files that differ from the shipped ones (for drift). */
  differing: string[];
}

/** The shipped skills: one folder each holding a SKILL.md. */
export function listSkills(source: string): string[] {
  return readdirSync(source)
    .filter((name) => existsSync(join(source, name, 'SKILL.md')))
    .sort();
}

function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (lstatSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function syncSkills(source: string, target: string, options: { check: boolean; force: boolean }): SkillState[] {
  return listSkills(source).map((name): SkillState => {
    const files = filesOf(join(source, name));
    const missing = !existsSync(join(target, name, 'SKILL.md'));
    const differing = files.filter((file) => {
      const there = join(target, name, file);
      return existsSync(there) && !readFileSync(there).equals(readFileSync(join(source, name, file)));
    });
    const absent = files.filter((file) => !existsSync(join(target, name, file)));
    // A symlink in the way (the folder, a file) is the user's arrangement: never written through.
    const linked = [join(target, name), ...files.map((file) => join(target, name, file))].some(isSymlink);
    if (linked) return { name, status: 'drift', differing: ['(a symlink: left alone)'] };
    const copy = (list: readonly string[]) => {
      for (const file of list) {
        const to = join(target, name, file);
        mkdirSync(dirname(to), { recursive: true });
        writeFileAtomic(to, readFileSync(join(source, name, file)));
      }
    };
    if (missing) {
      if (!options.check) copy(files);
      return { name, status: options.check ? 'missing' : 'installed', differing: [] };
    }
    if (differing.length === 0 && absent.length === 0) return { name, status: 'installed', differing: [] };
    if (options.check || (!options.force && differing.length > 0)) {
      // Files the user never had are added even without --force; changed ones wait for it.
      if (!options.check) copy(absent);
      return { name, status: 'drift', differing: [...differing, ...(options.check ? absent : [])] };
    }
    copy([...differing, ...absent]);
    return { name, status: 'updated', differing };
  });
}
