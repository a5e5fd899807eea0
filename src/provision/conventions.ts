/**
 * The vault conventions: the template tree under `conventions/vault/` (the constitution, the
 * agent folders' READMEs, the decision ledger, root CLAUDE.md/AGENTS.md), with the agent folder's
 * name substituted, compared with a vault. Pure apart from reading the files.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { lineDiff } from '../writes/index.js';

export interface ConventionFile {
  /** Vault-relative path (agent folder substituted). */
  path: string;
  text: string;
}

export type ConventionState = { path: string; state: 'missing'; text: string } | { path: string; state: 'same' } | { path: string; state: 'changed'; diff: string };

/** Text as compared: no BOM, `\n` line endings (a Windows checkout or editor changes neither meaning). */
function normal(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
}

/** The templates with `Claude/` and `{{AGENT_ROOT}}` mapped to the configured agent folder. */
export function conventionFiles(templateDir: string, agentRoot: string): ConventionFile[] {
  const out: ConventionFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (lstatSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) {
        const rel = relative(templateDir, path).split(sep).join('/');
        const mapped = rel.startsWith('Claude/') ? `${agentRoot}/${rel.slice('Claude/'.length)}` : rel;
        out.push({ path: mapped, text: normal(readFileSync(path, 'utf8')).replaceAll('{{AGENT_ROOT}}', agentRoot) });
      }
    }
  };
  walk(templateDir);
  return out;
}

/** Each convention file against the vault: missing, the same, or changed (with a diff, vault's side as `+`). */
export function compareConventions(vault: string, files: readonly ConventionFile[]): ConventionState[] {
  return files.map((file): ConventionState => {
    const absolute = join(vault, file.path);
    // lstat, not exists: a symlink (even a dangling one) is the owner's and is never followed.
    let entry;
    try {
      entry = lstatSync(absolute);
    } catch {
      return { path: file.path, state: 'missing', text: file.text };
    }
    if (entry.isSymbolicLink()) return { path: file.path, state: 'changed', diff: '(a symlink: left alone, not followed)' };
    if (!entry.isFile()) return { path: file.path, state: 'changed', diff: '(not a file: left alone)' };
    const current = normal(readFileSync(absolute, 'utf8'));
    return current === file.text ? { path: file.path, state: 'same' } : { path: file.path, state: 'changed', diff: lineDiff(file.text, current) };
  });
}
