/** The local page over a fixture vault: an engine, its HTTP server on a free port, filing proposals and canvas files to show. */
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import type { TestContext } from 'node:test';
import { recordProposals } from '../../src/librarian/index.js';
import { startHttp } from '../../src/mcp/index.js';
import { LIBRARIAN_VAULT } from './librarian.js';
import { connectFixture } from './mcp.js';

/** A small JSON Canvas: two folders as groups, their notes as file nodes, one edge, one text node. */
export const FIXTURE_CANVAS = {
  nodes: [
    { id: 'g-zoo', type: 'group', x: -20, y: -60, width: 760, height: 300, label: 'Projects/Zoo' },
    { id: 'g-garden', type: 'group', x: -20, y: 300, width: 520, height: 180, label: 'Garden' },
    { id: 'n1', type: 'file', file: 'Projects/Zoo/Walrus Feeding.md', x: 0, y: 0, width: 220, height: 60 },
    { id: 'n2', type: 'file', file: 'Projects/Zoo/Seal Pool.md', x: 260, y: 0, width: 220, height: 60 },
    { id: 'n3', type: 'file', file: 'Projects/Zoo/Keepers.md', x: 500, y: 0, width: 220, height: 60 },
    { id: 'n4', type: 'file', file: 'Projects/Zoo/Walrus Health.md', x: 0, y: 120, width: 220, height: 60, color: '4' },
    { id: 'n5', type: 'file', file: 'Garden/Compost.md', x: 0, y: 360, width: 220, height: 60 },
    { id: 'n6', type: 'file', file: 'Garden/Roses.md', x: 260, y: 360, width: 220, height: 60 },
    { id: 't1', type: 'text', text: 'Drawn by a test', x: 520, y: 120, width: 200, height: 60 },
  ],
  edges: [
    { id: 'e1', fromNode: 'n1', toNode: 'n4', label: 'walrus' },
    { id: 'e2', fromNode: 'n5', toNode: 'n6' },
  ],
};

export const FIXTURE_GRAPH = {
  nodes: [
    { id: 'walrus', type: 'file', file: 'Projects/Zoo/Walrus Feeding.md', x: 0, y: 0, width: 200, height: 50 },
    { id: 'keeper', type: 'file', file: 'Projects/Zoo/Keepers.md', x: 300, y: 120, width: 200, height: 50 },
    { id: 'seal', type: 'file', file: 'Projects/Zoo/Seal Pool.md', x: 0, y: 240, width: 200, height: 50 },
  ],
  edges: [
    { id: 'r1', fromNode: 'keeper', toNode: 'walrus', label: 'feeds' },
    { id: 'r2', fromNode: 'keeper', toNode: 'seal', label: 'trains' },
  ],
};

export async function startPage(t: TestContext, options: { token?: string } = {}) {
  const files = { ...LIBRARIAN_VAULT, 'Claude/Maps/Vault map.canvas': JSON.stringify(FIXTURE_CANVAS), 'Claude/Maps/Entity graph.canvas': JSON.stringify(FIXTURE_GRAPH) };
  const fixture = await connectFixture(t, files);
  const { engine } = fixture;
  const hashOf = (path: string) => engine.db.prepare('SELECT hash FROM notes WHERE path = ?').pluck().get(path) as string;
  const proposals = recordProposals(
    engine.db,
    [
      { kind: 'propose', path: 'Claude/Inbox/Walrus Plan.md', hash: hashOf('Claude/Inbox/Walrus Plan.md'), target: 'Projects/Zoo', share: 0.62, reason: 'low confidence', neighbours: [] },
      { kind: 'propose', path: 'Claude/Inbox/Rota.md', hash: hashOf('Claude/Inbox/Rota.md'), target: 'Garden', share: 0.51, reason: 'low confidence', neighbours: [] },
    ],
    'test-run',
    new Date().toISOString(),
  );
  const http = await startHttp(engine, { port: 0, ...(options.token ? { token: options.token } : {}) });
  t.after(
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  const port = (http.address() as AddressInfo).port;
  return { ...fixture, port, proposals, origin: `http://127.0.0.1:${port}` };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request exactly as given: the path is sent unnormalized (fetch would resolve `..`). */
export function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
