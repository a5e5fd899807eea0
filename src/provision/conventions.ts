/**
 * The vault conventions: the template tree under `conventions/vault/` (the constitution, the
 * agent folders' READMEs, the decision ledger, root CLAUDE.md/AGENTS.md), with the agent folder's
 * name substituted, compared with a vault. Pure apart from reading the files.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { lineDiff } from '../writes/index.js';

export interface ConventionFile {
  /** Vault-relative path (agent folder substituted). */
  path: string;
  text: string;
}

export type ConventionState =
  | { path: string; state: 'missing'; text: string }
  | { path: string; state: 'same' }
  | { path: string; state: 'changed'; diff: string };

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
        out.push({ path: mapped, text: readFileSync(path, 'utf8').replaceAll('{{AGENT_ROOT}}', agentRoot) });
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
    if (!existsSync(absolute)) return { path: file.path, state: 'missing', text: file.text };
    const current = readFileSync(absolute, 'utf8').replace(/\r\n/g, '\n');
    return current === file.text ? { path: file.path, state: 'same' } : { path: file.path, state: 'changed', diff: lineDiff(file.text, current) };
  });
}
