/**
 * JSON Canvas 1.0 (https://jsoncanvas.org/spec/1.0/), the format Obsidian opens natively: the
 * shapes Engram writes and a validator for any canvas. The validator is the contract with every
 * reader of these files (Obsidian, the daemon's web page), so it checks the spec's rules, not
 * just the fields Engram happens to write. Pure.
 */

export const CANVAS_COLORS = ['1', '2', '3', '4', '5', '6'] as const;
export type Side = 'top' | 'right' | 'bottom' | 'left';
const SIDES: readonly string[] = ['top', 'right', 'bottom', 'left'];
const ENDS: readonly string[] = ['none', 'arrow'];

interface NodeBase {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A preset ('1'–'6') or a hex colour (#RRGGBB). */
  color?: string;
}
export interface TextNode extends NodeBase {
  type: 'text';
  text: string;
}
export interface FileNode extends NodeBase {
  type: 'file';
  /** Vault-relative path of the file. */
  file: string;
  subpath?: string;
}
export interface LinkNode extends NodeBase {
  type: 'link';
  url: string;
}
export interface GroupNode extends NodeBase {
  type: 'group';
  label?: string;
  background?: string;
  backgroundStyle?: 'cover' | 'ratio' | 'repeat';
}
export type CanvasNode = TextNode | FileNode | LinkNode | GroupNode;

export interface CanvasEdge {
  id: string;
  fromNode: string;
  toNode: string;
  fromSide?: Side;
  toSide?: Side;
  fromEnd?: 'none' | 'arrow';
  toEnd?: 'none' | 'arrow';
  color?: string;
  label?: string;
}

export interface Canvas {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

/**
 * What is wrong with `value` as a JSON Canvas 1.0 document, one line per problem (at most
 * `limit`); empty when it is valid. Checks: top-level arrays, each node's id (unique, shared
 * with no edge), type, integer x/y/width/height (sizes positive), the type's required string
 * field, the optional fields' types and values, and each edge's id and existing endpoints.
 */
export function validateCanvas(value: unknown, limit = 20): string[] {
  const problems: string[] = [];
  const say = (problem: string): boolean => problems.push(problem) >= limit;
  if (!isRecord(value)) return ['the canvas is not a JSON object'];
  const nodes = value.nodes ?? [];
  const edges = value.edges ?? [];
  if (!Array.isArray(nodes)) return ['"nodes" is not an array'];
  if (!Array.isArray(edges)) return ['"edges" is not an array'];
  const ids = new Set<string>();
  for (const [i, node] of nodes.entries()) {
    for (const problem of nodeProblems(node, i, ids)) if (say(problem)) return problems;
  }
  const edgeIds = new Set<string>();
  for (const [i, edge] of edges.entries()) {
    for (const problem of edgeProblems(edge, i, ids, edgeIds)) if (say(problem)) return problems;
  }
  return problems;
}

function nodeProblems(node: unknown, i: number, ids: Set<string>): string[] {
  if (!isRecord(node)) return [`nodes[${i}] is not an object`];
  const problems: string[] = [];
  const where = `nodes[${i}]${typeof node.id === 'string' ? ` (${node.id})` : ''}`;
  if (typeof node.id !== 'string' || node.id === '') problems.push(`${where}: "id" must be a non-empty string`);
  else if (ids.has(node.id)) problems.push(`${where}: id "${node.id}" is used twice`);
  else ids.add(node.id);
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    if (!Number.isInteger(node[key])) problems.push(`${where}: "${key}" must be an integer`);
  }
  for (const key of ['width', 'height'] as const) if (Number.isInteger(node[key]) && (node[key] as number) <= 0) problems.push(`${where}: "${key}" must be positive`);
  if (node.color !== undefined && !isColor(node.color)) problems.push(`${where}: "color" must be a preset "1"–"6" or #RRGGBB`);
  const required: Record<string, string> = { text: 'text', file: 'file', link: 'url' };
  if (node.type === 'group') {
    if (node.label !== undefined && typeof node.label !== 'string') problems.push(`${where}: "label" must be a string`);
    if (node.background !== undefined && typeof node.background !== 'string') problems.push(`${where}: "background" must be a string`);
    if (node.backgroundStyle !== undefined && !['cover', 'ratio', 'repeat'].includes(node.backgroundStyle as string)) problems.push(`${where}: "backgroundStyle" must be cover, ratio or repeat`);
  } else if (typeof node.type === 'string' && required[node.type] !== undefined) {
    const field = required[node.type]!;
    if (typeof node[field] !== 'string' || (field !== 'text' && node[field] === '')) problems.push(`${where}: a ${node.type} node needs a string "${field}"`);
    if (node.type === 'file' && node.subpath !== undefined && (typeof node.subpath !== 'string' || !node.subpath.startsWith('#'))) problems.push(`${where}: "subpath" must start with #`);
  } else {
    problems.push(`${where}: "type" must be text, file, link or group`);
  }
  return problems;
}

function edgeProblems(edge: unknown, i: number, nodeIds: Set<string>, edgeIds: Set<string>): string[] {
  if (!isRecord(edge)) return [`edges[${i}] is not an object`];
  const problems: string[] = [];
  const where = `edges[${i}]${typeof edge.id === 'string' ? ` (${edge.id})` : ''}`;
  if (typeof edge.id !== 'string' || edge.id === '') problems.push(`${where}: "id" must be a non-empty string`);
  else if (edgeIds.has(edge.id) || nodeIds.has(edge.id)) problems.push(`${where}: id "${edge.id}" is used twice`);
  else edgeIds.add(edge.id);
  for (const key of ['fromNode', 'toNode'] as const) {
    if (typeof edge[key] !== 'string') problems.push(`${where}: "${key}" must be a node id`);
    else if (!nodeIds.has(edge[key])) problems.push(`${where}: "${key}" names no node ("${edge[key]}")`);
  }
  for (const key of ['fromSide', 'toSide'] as const) if (edge[key] !== undefined && !SIDES.includes(edge[key] as string)) problems.push(`${where}: "${key}" must be top, right, bottom or left`);
  for (const key of ['fromEnd', 'toEnd'] as const) if (edge[key] !== undefined && !ENDS.includes(edge[key] as string)) problems.push(`${where}: "${key}" must be none or arrow`);
  if (edge.color !== undefined && !isColor(edge.color)) problems.push(`${where}: "color" must be a preset "1"–"6" or #RRGGBB`);
  if (edge.label !== undefined && typeof edge.label !== 'string') problems.push(`${where}: "label" must be a string`);
  return problems;
}

function isColor(value: unknown): boolean {
  return typeof value === 'string' && ((CANVAS_COLORS as readonly string[]).includes(value) || /^#[0-9a-fA-F]{6}$/.test(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The canvas as Engram writes it: one node or edge per line, so a diff of two maps (a preview,
 * `git diff` in a versioned vault) shows which notes moved instead of one changed line.
 */
export function renderCanvas(canvas: Canvas): string {
  const list = (items: readonly object[]) => (items.length === 0 ? '[]' : `[\n\t\t${items.map((item) => JSON.stringify(item)).join(',\n\t\t')}\n\t]`);
  return `{\n\t"nodes":${list(canvas.nodes)},\n\t"edges":${list(canvas.edges)}\n}\n`;
}
