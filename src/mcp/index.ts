/** The MCP server: tools by group over stdio or Streamable HTTP, and the engine that keeps them fresh. */
export { connectServer, createServer, SERVER_INSTRUCTIONS } from './server.js';
export { LineStdioTransport } from './stdio-transport.js';
export { VaultEngine, type EngineOptions, type IndexState } from './engine.js';
export { startHttp, type HttpOptions } from './http.js';
export { TOOL_GUIDE, ROUTING } from './tools/index.js';
export { startAttach, type AttachEndpoint, type AttachedSession } from './attach-server.js';
export type { SessionIdentity } from './identity.js';
