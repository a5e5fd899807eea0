// The local page: plain JavaScript, no build step, no network beyond its own server. Every
// vault string reaches the page as text (textContent, attributes), never as HTML.
import { drawCanvas } from './map.js';

const state = { vaultName: '', views: {} };

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
}

async function api(path, init) {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
  return body;
}

function flash(text, kind = 'info') {
  const node = document.getElementById('flash');
  node.textContent = text;
  node.className = kind;
}

export function obsidianUri(path) {
  return `obsidian://open?vault=${encodeURIComponent(state.vaultName)}&file=${encodeURIComponent(path)}`;
}

// ── Status ───────────────────────────────────────────────────────────────────
async function showStatus() {
  const s = await api('/api/status');
  state.vaultName = s.vault_name;
  document.getElementById('vault-name').textContent = `· ${s.vault_name}`;
  const facts = [
    ['Vault', s.vault],
    ['Notes', s.notes],
    ['Notes with vectors', s.notes_with_vectors],
    ['Index', s.indexing.state === 'failed' ? `failed: ${s.indexing.reason}` : s.indexing.state],
  ];
  const d = s.daemon;
  if (d) {
    facts.push(['Daemon', `pid ${d.pid} on ${d.host}, since ${d.started_at}`]);
    facts.push(['Running now', d.running ?? 'nothing']);
    facts.push(['Next backlog drain', d.next.backlog ?? '—'], ['Next sweep', d.next.sweep ?? '—']);
  } else facts.push(['Daemon', 'not this server (engram serve): sweeps run from engram librarian or the daemon']);
  if (s.last_sweep?.extraction_paused) facts.push(['Extraction paused', s.last_sweep.extraction_paused]);
  document.getElementById('status-facts').replaceChildren(...facts.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  const sweep = s.last_sweep;
  document
    .getElementById('status-sweep')
    .replaceChildren(
      sweep
        ? el('div', {}, el('p', {}, `${sweep.kind} `, el('code', {}, sweep.run_id), ` · ${sweep.status} · ${sweep.started_at}`), phaseList(sweep.phases))
        : el('p', { class: 'muted' }, 'No sweep yet: the daemon runs one on its schedule, or run engram librarian.'),
    );
  const checks = sweep?.health ?? [];
  document
    .getElementById('status-health')
    .replaceChildren(...(checks.length ? checks.map((c) => el('li', { class: c.ok ? 'ok' : 'warn' }, `${c.ok ? '✓' : '!'} ${c.name}: ${c.count}`)) : [el('li', { class: 'muted' }, 'No health checks yet.')]));
  document.getElementById('proposal-count').textContent = String((sweep?.pending_proposals.organize ?? 0) + (sweep?.pending_proposals.merges ?? 0) || '');
}

function phaseList(phases) {
  return el(
    'ul',
    { class: 'phases' },
    phases.map((p) => el('li', { class: p.status === 'failed' ? 'warn' : '' }, el('strong', {}, p.name), ` ${p.status} — ${p.summary}`)),
  );
}

// ── Sweeps ───────────────────────────────────────────────────────────────────
async function showSweeps() {
  const { runs, report } = await api('/api/sweeps');
  const rows = runs.map((run) =>
    el('tr', {}, el('td', {}, run.started_at.slice(0, 16).replace('T', ' ')), el('td', {}, run.kind), el('td', {}, run.status), el('td', {}, el('code', {}, run.id)), el('td', {}, run.phases.map((p) => `${p.name} ${p.status}`).join(', '))),
  );
  document.getElementById('sweeps-runs').replaceChildren(
    runs.length
      ? el(
          'table',
          {},
          el('caption', { class: 'muted' }, 'Newest first. engram undo RUN_ID reverts a sweep.'),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ['Started (UTC)', 'Kind', 'Status', 'Run', 'Phases'].map((h) => el('th', { scope: 'col' }, h)),
            ),
          ),
          el('tbody', {}, rows),
        )
      : el('p', { class: 'muted' }, 'No sweeps yet.'),
  );
  document.getElementById('sweeps-report-path').textContent = report.path;
  document.getElementById('sweeps-report').textContent = report.text ?? 'No report yet.';
}

// ── Proposals ────────────────────────────────────────────────────────────────
async function showProposals() {
  const { proposals } = await api('/api/proposals');
  document.getElementById('proposal-count').textContent = proposals.length ? String(proposals.length) : '';
  const list = document.getElementById('proposals-list');
  if (proposals.length === 0) return list.replaceChildren(el('li', { class: 'muted' }, 'Nothing waits for a decision.'));
  list.replaceChildren(...proposals.map(proposalItem));
}

function proposalItem(p) {
  const label = `${p.kind} #${p.id}`;
  const outcome = el('p', { class: 'outcome', role: 'status' });
  const buttons = ['approve', 'reject'].map((decision) =>
    el('button', { type: 'button', class: decision, 'aria-label': `${decision === 'approve' ? 'Approve' : 'Reject'} ${label}`, onclick: () => decideOne(p, decision, buttons, outcome) }, decision === 'approve' ? 'Approve' : 'Reject'),
  );
  return el('li', { 'data-proposal': `${p.kind}-${p.id}` }, el('p', {}, el('span', { class: `kind ${p.kind}` }, label), ' ', p.subject), el('p', { class: 'muted' }, p.detail), el('div', { class: 'actions' }, buttons), outcome);
}

async function decideOne(p, decision, buttons, outcome) {
  for (const b of buttons) b.disabled = true;
  try {
    const result = await api('/api/decide', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: p.kind, id: p.id, decision, subject: p.subject }) });
    outcome.textContent = `${p.kind} #${p.id}: ${result.outcome}`;
    flash(outcome.textContent);
    const badge = document.getElementById('proposal-count');
    badge.textContent = Number(badge.textContent) > 1 ? String(Number(badge.textContent) - 1) : '';
  } catch (error) {
    outcome.textContent = error.message;
    outcome.classList.add('error');
    flash(error.message, 'error');
  }
}

// ── Search ───────────────────────────────────────────────────────────────────
async function runSearch(event) {
  event.preventDefault();
  const q = document.getElementById('search-query').value.trim();
  if (!q) return;
  const meta = document.getElementById('search-meta');
  const list = document.getElementById('search-results');
  meta.textContent = 'Searching…';
  try {
    const r = await api(`/api/search?q=${encodeURIComponent(q)}&limit=10`);
    const a = r.analysis;
    const parts = [`${r.total_matches} matching notes · ${r.mode} (${r.mode_reason})`];
    if (a) parts.push(`terms: ${a.terms.join(' ') || '(none the index knows)'}`);
    if (a?.ignored.length) parts.push(`left out: ${a.ignored.join(' ')}`);
    if (a?.corrected.length) parts.push(`spelling: ${a.corrected.map((c) => `${c.from} → ${c.to}`).join(', ')}`);
    meta.textContent = [...parts, ...r.notices].join(' · ');
    list.replaceChildren(...(r.results.length ? r.results.map(hitItem) : [el('li', { class: 'muted' }, `No results for “${r.query}”.`)]));
  } catch (error) {
    meta.textContent = error.message;
    list.replaceChildren();
  }
}

function laneChips(lanes) {
  const chips = [];
  if (lanes.keyword) chips.push(`keyword #${lanes.keyword.rank} (${lanes.keyword.score})`);
  if (lanes.semantic) chips.push(`semantic #${lanes.semantic.rank} (cos ${lanes.semantic.score}, ${lanes.semantic.source}${lanes.semantic.block ? `, ${lanes.semantic.block}` : ''})`);
  if (lanes.substring) chips.push(`substring #${lanes.substring.rank}`);
  if (lanes.fuzzy) chips.push(`fuzzy #${lanes.fuzzy.rank}: “${lanes.fuzzy.name}”, ${lanes.fuzzy.read_as.map((r) => `${r.token} as ${r.as}`).join(', ')}`);
  if (lanes.name) chips.push(`name (${lanes.name.match})`);
  return el(
    'ul',
    { class: 'lanes', 'aria-label': 'Lanes' },
    chips.map((c) => el('li', {}, c)),
  );
}

function explainTable(hit) {
  if (!hit.explain?.length && !hit.boosts?.length) return null;
  const rows = (hit.explain ?? []).map((p) => el('tr', {}, el('td', {}, p.term), el('td', {}, p.tf), el('td', {}, p.df), el('td', {}, p.idf), el('td', {}, p.score)));
  const boosts = (hit.boosts ?? []).map((b) =>
    el('li', {}, b.kind === 'name' ? `+ the query covers the name “${b.terms.join(' ')}” → ${b.score}` : `+ best passage “${b.terms.join('') || '(top of the note)'}” → ${b.score} (proximity ${b.proximity})`),
  );
  return el(
    'details',
    {},
    el('summary', {}, 'Explain the score'),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['term', 'tf', 'df', 'idf', 'score'].map((h) => el('th', { scope: 'col' }, h)),
        ),
      ),
      el('tbody', {}, rows),
    ),
    boosts.length ? el('ul', {}, boosts) : null,
  );
}

function hitItem(hit) {
  const where = [hit.section ? `§ ${hit.section}` : '', hit.lines ? `lines ${hit.lines[0]}–${hit.lines[1]}` : ''].filter(Boolean).join(', ');
  return el(
    'li',
    { class: 'hit' },
    el('p', {}, el('a', { href: obsidianUri(hit.path) }, hit.title || hit.path), ' ', el('span', { class: 'muted' }, `${hit.path} · score ${hit.score}`)),
    laneChips(hit.lanes),
    where ? el('p', { class: 'muted' }, where) : null,
    hit.excerpt ? el('p', { class: 'excerpt' }, hit.excerpt) : null,
    explainTable(hit),
  );
}

// ── Maps ─────────────────────────────────────────────────────────────────────
async function showMap(kind) {
  const { maps, folder } = await api('/api/maps');
  const select = document.getElementById(`${kind}-file`);
  const count = document.getElementById(`${kind}-count`);
  const svg = document.getElementById(`${kind}-svg`);
  if (maps.length === 0) {
    select.replaceChildren();
    count.textContent = `No canvas in ${folder}/ yet: engram map writes one.`;
    svg.replaceChildren();
    return;
  }
  const preferred = kind === 'map' ? maps.find((m) => m === 'Vault map.canvas') : maps.find((m) => /entit|graph/i.test(m) && m !== 'Vault map.canvas');
  const current = select.value && maps.includes(select.value) ? select.value : (preferred ?? maps[0]);
  select.replaceChildren(...maps.map((m) => el('option', { value: m, selected: m === current }, m)));
  const canvas = await api(`/api/map?name=${encodeURIComponent(current)}`);
  state.vaultName = canvas.vault_name;
  const drawn = drawCanvas(svg, canvas, { uri: obsidianUri, note: (path) => api(`/api/note?path=${encodeURIComponent(path)}`), tooltip: document.getElementById('tooltip') });
  count.textContent = `${drawn.files} notes, ${drawn.others} other nodes, ${drawn.edges} edges`;
}

// ── Views ────────────────────────────────────────────────────────────────────
const VIEWS = { status: showStatus, sweeps: showSweeps, proposals: showProposals, search: async () => {}, map: () => showMap('map'), graph: () => showMap('graph') };

async function show(view, focus) {
  if (!(view in VIEWS)) view = 'status';
  for (const button of document.querySelectorAll('nav button')) {
    if (button.dataset.view === view) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
  }
  for (const name of Object.keys(VIEWS)) document.getElementById(`view-${name}`).hidden = name !== view;
  if (focus) document.querySelector(`#view-${view} h2`).focus();
  flash('');
  if (location.hash !== `#${view}`) history.replaceState(null, '', `#${view}`);
  try {
    await VIEWS[view]();
    document.body.dataset.loaded = view;
  } catch (error) {
    flash(error.message, 'error');
  }
}

document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('nav button')) button.addEventListener('click', () => show(button.dataset.view, true));
  document.getElementById('search-form').addEventListener('submit', runSearch);
  for (const kind of ['map', 'graph']) document.getElementById(`${kind}-file`).addEventListener('change', () => show(kind, false));
  api('/api/status')
    .then((s) => {
      state.vaultName = s.vault_name;
    })
    .catch(() => {})
    .finally(() => show(location.hash.slice(1), false));
});
