import assert from 'node:assert/strict';

/**
 * Polls until `check` holds, for effects that come "soon" (a watcher's re-index, a background
 * run). How soon is not asserted: a loaded machine is slow, and a test that fails for that is a
 * false alarm. The give-up is only there so a check that can never hold ends the test.
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, giveUpMs = 120_000): Promise<void> {
  const giveUpAt = Date.now() + giveUpMs;
  while (!(await check())) {
    if (Date.now() > giveUpAt) assert.fail(`${what}: never happened`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
