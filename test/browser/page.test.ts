/**
 * The local page in a real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * log in through the form, every view loads, search shows lanes and the explain breakdown, an
 * approval moves the note in the vault, both maps draw the fixture canvases' nodes with hover and
 * obsidian:// links, the page is usable from the keyboard, and nothing logs a console error.
 * Each view is saved as a screenshot under test-artifacts/browser/ (docs/images/ holds copies).
 *
 * Without Chromium the test is skipped with the reason — except in CI (CI=true), where `.ci/run`
 * installs it: there a missing browser fails, unless `.ci/run` said why it could not install one
 * (BROWSER_UNAVAILABLE).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { newRunId, runSweep, sweepOptions } from '../../src/librarian/index.js';
import { startPage } from '../helpers/page.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'browser');
const TOKEN = 'browser-sekret';
/** What works on a container without a GPU or a sandbox; no network beyond the page's server. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `no Chromium at ${CHROMIUM} (install it: apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true' && !process.env.BROWSER_UNAVAILABLE) throw new Error(`${why}; .ci/run installs it before npm test`);
  return process.env.BROWSER_UNAVAILABLE ? `${why}: ${process.env.BROWSER_UNAVAILABLE}` : why;
}

const missing = browserMissing();

async function launch(t: test.TestContext): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  t.after(() => browser.close());
  return browser;
}

/** Opens a view by its nav button and waits until its data is drawn. */
async function open(page: Page, name: string, view: string): Promise<void> {
  await page.getByRole('button', { name, exact: false }).first().click();
  await page.waitForSelector(`body[data-loaded="${view}"]`);
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

test('the local page in headless Chromium: log in, every view, search, approve, maps, keyboard, no console errors', { skip: missing ?? false }, async (t) => {
  const { origin, vault, engine } = await startPage(t, { token: TOKEN });
  await runSweep(
    sweepOptions(
      { ...engine.settings, agentRoot: 'Claude', extractor: 'none', extractModel: 'x', organizeRoot: false, sweepMaxNotes: undefined, sweepMaxCostUsd: undefined },
      { vault: vault.root, stateDir: vault.home, db: engine.db },
      { runId: newRunId('sweep'), kind: 'sweep', dryRun: false, log: { err: () => {} }, phases: ['health', 'report'] },
    ),
  );
  engine.changed();
  const browser = await launch(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });

  // A wrong token, then the form: the token never appears in a URL.
  const login = await context.newPage();
  await login.goto(`${origin}/`);
  await login.getByLabel('Token').fill('wrong');
  await login.getByRole('button', { name: 'Open' }).click();
  await login.getByText('That token is wrong.').waitFor();
  await login.getByLabel('Token').fill(TOKEN);
  await login.getByRole('button', { name: 'Open' }).click();
  await login.waitForSelector('body[data-loaded="status"]');
  assert.equal(new URL(login.url()).search, '');
  await login.close();

  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/`);
  await page.waitForSelector('body[data-loaded="status"]');
  assert.match(await page.locator('#status-facts').innerText(), /Notes\s+\d+\s+Notes with vectors\s+0\s+Index\s+ready/);
  await page.getByText('Last sweep').waitFor();
  await shot(page, 'status');

  // Keyboard: the first Tab reaches the first view button; Enter on a view moves focus to its heading.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement?.textContent?.trim()'), 'Status');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-loaded="sweeps"]');
  assert.equal(await page.evaluate('document.activeElement?.id'), 'h-sweeps');
  assert.match(await page.locator('#sweeps-report').innerText(), /## Sweep /);
  assert.equal(await page.locator('#sweeps-runs tbody tr').count(), 1);
  await shot(page, 'sweeps');

  await open(page, 'Proposals', 'proposals');
  assert.equal(await page.locator('[data-proposal]').count(), 2);
  await shot(page, 'proposals');
  const [first] = await page.locator('[data-proposal]').evaluateAll((items) => items.map((item) => item.getAttribute('data-proposal')));
  const id = first!.split('-')[1];
  await page.getByRole('button', { name: `Approve filing #${id}` }).click();
  await page
    .locator(`[data-proposal="${first}"] .outcome`)
    .getByText(/applied: moved to Projects\/Zoo\/Walrus Plan\.md/)
    .waitFor();
  assert.ok(existsSync(join(vault.root, 'Projects/Zoo/Walrus Plan.md')) && !existsSync(join(vault.root, 'Claude/Inbox/Walrus Plan.md')), 'the vault changed');
  assert.equal(await page.getByRole('button', { name: `Approve filing #${id}` }).isDisabled(), true, 'no second click');
  assert.equal(await page.locator('#proposal-count').innerText(), '1');

  await open(page, 'Search', 'search');
  await page.getByLabel('Query').fill('walrus plan');
  await page.getByLabel('Query').press('Enter');
  await page.locator('.hit').first().waitFor();
  const top = page.locator('.hit').first();
  assert.match(await top.innerText(), /Projects\/Zoo\/Walrus Plan\.md/, 'search finds the note where it was moved');
  assert.match(await top.locator('.lanes').innerText(), /keyword #1/);
  await top.getByText('Explain the score').click();
  assert.match(await top.locator('details table').innerText(), /walrus/);
  await shot(page, 'search');

  await open(page, 'Vault map', 'map');
  assert.equal(await page.locator('#map-svg a.node-file').count(), 6);
  assert.equal(await page.locator('#map-svg .node').count(), 9);
  assert.equal(await page.locator('#map-svg line.edge').count(), 2);
  assert.match(await page.locator('#map-count').innerText(), /6 notes, 3 other nodes, 2 edges/);
  const node = page.locator('#map-svg a.node-file[data-file="Garden/Roses.md"]');
  assert.equal(await node.getAttribute('href'), 'obsidian://open?vault=vault&file=Garden%2FRoses.md');
  await node.hover();
  await page.locator('#tooltip').getByText('Prune the roses in the garden').waitFor();
  assert.match(await page.locator('#tooltip strong').innerText(), /^Roses$/);
  const before = await page.locator('#map-svg').getAttribute('viewBox');
  await page.getByRole('button', { name: 'Zoom in' }).first().click();
  assert.notEqual(await page.locator('#map-svg').getAttribute('viewBox'), before, 'zoom changes the view');
  await page.getByRole('button', { name: 'Fit' }).first().click();
  await page.mouse.move(5, 5);
  await shot(page, 'vault-map');

  await open(page, 'Entity graph', 'graph');
  assert.equal(await page.locator('#graph-file').inputValue(), 'Entity graph.canvas');
  assert.equal(await page.locator('#graph-svg a.node-file').count(), 3);
  assert.equal(await page.locator('#graph-svg line.edge').count(), 2);
  await page.locator('#graph-svg a.node-file').first().focus();
  await page.locator('#tooltip').getByText('The walrus keeper feeds').waitFor();
  await shot(page, 'entity-graph');

  assert.deepEqual(errors, [], 'no console errors');
});
