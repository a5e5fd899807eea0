/**
 * Preloaded with `--import` into a process a test starts: writes every module the process loads
 * to $ENGRAM_TEST_MODULE_LOG, one URL or path a line — ES modules as they load (a loader hook),
 * CommonJS ones from the require cache at exit — so a test can say what a process never loaded.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.ENGRAM_TEST_MODULE_LOG;
if (log) {
  register('./module-log-hook.mjs', import.meta.url, { data: { log } });
  process.on('exit', () => appendFileSync(log, `${Object.keys(createRequire(import.meta.url).cache).join('\n')}\n`));
}
