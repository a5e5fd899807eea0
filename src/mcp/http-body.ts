/** Reading a request body with a size limit, shared by the MCP endpoint and the local page. */
import type { IncomingMessage } from 'node:http';

/** The request body as text, or null when it exceeds `maxBytes` (the rest is read and dropped, so the client gets its 413). */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
