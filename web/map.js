// Draws a JSON Canvas file (jsoncanvas.org, version 1.0) as SVG: groups, then edges, then nodes.
// A file node is a link that opens the note in Obsidian; hovering or focusing it shows the note's
// title and opening words. Zoom with the buttons, the wheel, or + and − on the focused map; drag
// or use the arrow keys to pan.

const SVG = 'http://www.w3.org/2000/svg';
const PRESET = { 1: '#e5484d', 2: '#f76b15', 3: '#e2a336', 4: '#30a46c', 5: '#0090ff', 6: '#8e4ec6' };

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

const finite = (n) => typeof n === 'number' && Number.isFinite(n);

function colour(value) {
  if (typeof value !== 'string') return null;
  if (PRESET[value]) return PRESET[value];
  return /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : null;
}

function baseName(path) {
  return path.split('/').pop().replace(/\.md$/i, '');
}

/** The node's text label, cut to what fits its width. */
function label(text, width, height) {
  const size = Math.max(8, Math.min(18, height * 0.35));
  const room = Math.floor(width / (size * 0.55));
  const shown = text.length > room ? `${text.slice(0, Math.max(room - 1, 1))}…` : text;
  return { shown, size };
}

/** Side anchor points for an edge end, per the spec's fromSide/toSide, else the centre. */
function anchor(node, side) {
  const cx = node.x + node.width / 2;
  const cy = node.y + node.height / 2;
  if (side === 'top') return [cx, node.y];
  if (side === 'bottom') return [cx, node.y + node.height];
  if (side === 'left') return [node.x, cy];
  if (side === 'right') return [node.x + node.width, cy];
  return [cx, cy];
}

export function drawCanvas(svg, canvas, { uri, note, tooltip }) {
  const nodes = canvas.nodes.filter((n) => n && typeof n.id === 'string' && finite(n.x) && finite(n.y) && finite(n.width) && finite(n.height));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  svg.replaceChildren();
  const counts = { files: 0, others: 0, edges: 0 };
  if (nodes.length === 0) return counts;
  // A loop, not Math.min(...list): a spread of 50k arguments can overflow the stack.
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of nodes) {
    minX = Math.min(minX, n.x);
    minY = Math.min(minY, n.y);
    maxX = Math.max(maxX, n.x + n.width);
    maxY = Math.max(maxY, n.y + n.height);
  }
  const pad = Math.max(maxX - minX, maxY - minY) * 0.03 + 20;
  const fit = { x: minX - pad, y: minY - pad, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad };
  const view = { ...fit };
  const apply = () => svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  apply();

  const layers = { groups: svgEl('g', { class: 'groups' }), edges: svgEl('g', { class: 'edges' }), nodes: svgEl('g', { class: 'nodes' }) };
  svg.append(layers.groups, layers.edges, layers.nodes);
  for (const n of nodes.filter((node) => node.type === 'group')) {
    const g = svgEl('g', { class: 'node node-group', 'data-node-id': n.id });
    const frame = svgEl('rect', { x: n.x, y: n.y, width: n.width, height: n.height, rx: 12 });
    // Through the CSSOM: the page's CSP refuses style attributes.
    if (colour(n.color)) frame.style.stroke = colour(n.color);
    g.append(frame);
    if (n.label) {
      const t = svgEl('text', { x: n.x + 8, y: n.y - 8, 'font-size': Math.max(14, Math.min(48, n.width / 20)) });
      t.textContent = n.label;
      g.append(t);
    }
    layers.groups.append(g);
    counts.others++;
  }
  for (const e of Array.isArray(canvas.edges) ? canvas.edges : []) {
    const from = byId.get(e?.fromNode);
    const to = byId.get(e?.toNode);
    if (!from || !to) continue;
    const [x1, y1] = anchor(from, e.fromSide);
    const [x2, y2] = anchor(to, e.toSide);
    const line = svgEl('line', { x1, y1, x2, y2, class: 'edge', 'data-edge-id': String(e.id ?? '') });
    if (colour(e.color)) line.style.stroke = colour(e.color);
    layers.edges.append(line);
    if (typeof e.label === 'string' && e.label) {
      line.append(Object.assign(svgEl('title'), { textContent: e.label }));
      const text = svgEl('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2, class: 'edge-label', 'text-anchor': 'middle', 'font-size': 14 });
      text.textContent = e.label;
      layers.edges.append(text);
    }
    counts.edges++;
  }
  for (const n of nodes.filter((node) => node.type !== 'group')) {
    layers.nodes.append(drawNode(n, { uri, note, tooltip }));
    if (n.type === 'file' && typeof n.file === 'string') counts.files++;
    else counts.others++;
  }
  wireZoom(svg, view, fit, apply);
  return counts;
}

function drawNode(n, { uri, note, tooltip }) {
  const isFile = n.type === 'file' && typeof n.file === 'string';
  const isLink = n.type === 'link' && typeof n.url === 'string' && /^https?:\/\//.test(n.url);
  const text = isFile ? baseName(n.file) : isLink ? n.url : typeof n.text === 'string' ? n.text.split('\n')[0] : (n.label ?? '');
  const wrap = isFile || isLink ? svgEl('a', { href: isFile ? uri(n.file) : n.url }) : svgEl('g');
  wrap.setAttribute('class', `node node-${isFile ? 'file' : n.type}`);
  wrap.setAttribute('data-node-id', n.id);
  if (isFile) {
    wrap.setAttribute('data-file', n.file);
    wrap.setAttribute('aria-label', `${baseName(n.file)} (open in Obsidian)`);
  }
  const rect = svgEl('rect', { x: n.x, y: n.y, width: n.width, height: n.height, rx: Math.min(8, n.height / 4) });
  if (colour(n.color)) rect.style.fill = colour(n.color);
  wrap.append(rect);
  if (n.width >= 40 && text) {
    const { shown, size } = label(text, n.width - 8, n.height);
    const t = svgEl('text', { x: n.x + n.width / 2, y: n.y + n.height / 2, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    t.textContent = shown;
    wrap.append(t);
  }
  if (isFile) {
    const showTip = async (event) => {
      const box = wrap.getBoundingClientRect();
      const x = event.clientX ?? box.right;
      const y = event.clientY ?? box.bottom;
      tooltip.replaceChildren(Object.assign(document.createElement('strong'), { textContent: baseName(n.file) }), Object.assign(document.createElement('p'), { textContent: 'Loading…' }));
      Object.assign(tooltip.style, { left: `${x + 12 + window.scrollX}px`, top: `${y + 12 + window.scrollY}px` });
      tooltip.hidden = false;
      try {
        n.noteInfo ??= await note(n.file);
        tooltip.replaceChildren(Object.assign(document.createElement('strong'), { textContent: n.noteInfo.title }), Object.assign(document.createElement('p'), { textContent: n.noteInfo.excerpt || n.file }));
      } catch {
        tooltip.replaceChildren(Object.assign(document.createElement('strong'), { textContent: baseName(n.file) }), Object.assign(document.createElement('p'), { textContent: `${n.file} (not indexed)` }));
      }
    };
    const hideTip = () => {
      tooltip.hidden = true;
    };
    wrap.addEventListener('mouseenter', showTip);
    wrap.addEventListener('focus', showTip);
    wrap.addEventListener('mouseleave', hideTip);
    wrap.addEventListener('blur', hideTip);
  }
  return wrap;
}

function wireZoom(svg, view, fit, apply) {
  const zoom = (factor, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    view.x = cx - (cx - view.x) * factor;
    view.y = cy - (cy - view.y) * factor;
    view.w *= factor;
    view.h *= factor;
    apply();
  };
  const section = svg.closest('section');
  section.querySelectorAll('[data-zoom]').forEach((button) => {
    button.onclick = () => (button.dataset.zoom === 'in' ? zoom(0.8) : button.dataset.zoom === 'out' ? zoom(1.25) : (Object.assign(view, fit), apply()));
  });
  svg.onwheel = (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const cx = view.x + ((event.clientX - box.left) / box.width) * view.w;
    const cy = view.y + ((event.clientY - box.top) / box.height) * view.h;
    zoom(event.deltaY < 0 ? 0.85 : 1 / 0.85, cx, cy);
  };
  let drag = null;
  svg.onpointerdown = (event) => {
    if (event.target.closest('a')) return;
    drag = { x: event.clientX, y: event.clientY };
    svg.setPointerCapture(event.pointerId);
  };
  svg.onpointermove = (event) => {
    if (!drag) return;
    const box = svg.getBoundingClientRect();
    view.x -= ((event.clientX - drag.x) / box.width) * view.w;
    view.y -= ((event.clientY - drag.y) / box.height) * view.h;
    drag = { x: event.clientX, y: event.clientY };
    apply();
  };
  svg.onpointerup = () => {
    drag = null;
  };
  const frame = svg.parentElement;
  frame.tabIndex = 0;
  frame.setAttribute('aria-label', 'Map: arrow keys pan, + and − zoom');
  frame.onkeydown = (event) => {
    const step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] }[event.key];
    if (step && event.target === frame) {
      view.x += step[0] * view.w;
      view.y += step[1] * view.h;
      apply();
      event.preventDefault();
    } else if (event.key === '+' || event.key === '=') zoom(0.8);
    else if (event.key === '-') zoom(1.25);
  };
}
