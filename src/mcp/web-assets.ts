/**
 * The local page's static files: plain HTML, CSS and JavaScript in the package's `web/` folder
 * (shipped beside `dist/`, listed in package.json `files`), found from this module both under tsx
 * (`src/mcp/`) and built (`dist/mcp/`), which sit at the same depth. They are read once, when the
 * server starts, into a table keyed by URL path: a request is answered only when its path is
 * exactly a key, so no URL — `../`, `%2e%2e`, an encoded slash, a backslash — can reach a file
 * outside the folder; anything else is 404.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  type: string;
  body: Buffer;
}

/** The folder the page's files ship in. */
export const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The assets by URL path: `/` is `index.html`, every other file is `/static/<name>`. */
export function loadAssets(dir: string = WEB_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || type === undefined || entry.name.startsWith('.')) continue;
    const asset = { type, body: readFileSync(join(dir, entry.name)) };
    assets.set(entry.name === 'index.html' ? '/' : `/static/${entry.name}`, asset);
  }
  if (!assets.has('/')) throw new Error(`the local page's files are missing: no index.html in ${dir}`);
  return assets;
}
