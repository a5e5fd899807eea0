/**
 * The registration table: every tool family, in the order tools/list shows them (orient first,
 * then finding, reading, writing, the graph and the caretaker's proposals).
 */
import type { ToolFamily } from './define.js';
import { editTools } from './edit.js';
import { graphTools } from './graph.js';
import { noteOpsTools } from './note-ops.js';
import { noteTools } from './notes.js';
import { organizeTools } from './organize.js';
import { relationTools } from './relations.js';
import { orientTools } from './orient.js';
import { searchTools } from './search.js';
import { workTools } from './work.js';
import { writeTools } from './write.js';

export const TOOL_FAMILIES: readonly ToolFamily[] = [orientTools, searchTools, noteTools, writeTools, editTools, noteOpsTools, workTools, graphTools, relationTools, organizeTools];

export { defineTool, type Tool, type ToolContext, type ToolFamily } from './define.js';
export { insertText } from './insert-text.js';
export { ROUTING, TOOL_GUIDE } from './orient.js';
