/** Running the CLI: in-process through `main()` (fast), or as a real child process. */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Tests never download models: offline unless a test says otherwise. */
const TEST_ENV = { ENGRAM_OFFLINE: '1' };

export async function runCli(argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    argv,
    { ...TEST_ENV, ...env },
    {
      out: (text) => {
        stdout += `${text}\n`;
      },
      err: (text) => {
        stderr += `${text}\n`;
      },
      errIsTty: false,
    },
  );
  return { code, stdout, stderr };
}

/** The real `engram` process (via tsx, so no build is needed). */
export function spawnCli(argv: string[], env: Record<string, string> = {}): CliResult {
  const result = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, ...argv], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...TEST_ENV, ...env },
    encoding: 'utf8',
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function spawnCliAsync(argv: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, ['--import', 'tsx', ENTRY, ...argv], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...TEST_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
