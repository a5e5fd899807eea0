/**
 * Tool results: text for the model plus the same data as `structuredContent`; failures as
 * `isError` with a sentence that says what to do next, led by the error's code in brackets
 * (`[PREVIEW_EXPIRED] this preview expired; …`) and repeated in `_meta`, so an agent can branch
 * on it. Expected errors never escape as throws.
 */
import { EngramError, type ErrorCode } from '../errors.js';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * The text block is the structured result as compact JSON (clients without structured content
 * read it): indentation would cost an agent a quarter more tokens, and a busy server its time.
 */
export function ok(structured: Record<string, unknown>, text?: string): ToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(structured) }], structuredContent: structured };
}

/** Where the code travels besides the text (a client reading `_meta` need not parse the text). */
export const ERROR_META_KEY = 'engram/error_code';

/** A failure the agent can act on; a tool's own check of its arguments is `INVALID_INPUT`. */
export function fail(message: string, code: ErrorCode = 'INVALID_INPUT'): ToolResult {
  return { content: [{ type: 'text', text: `[${code}] ${message}` }], isError: true, _meta: { [ERROR_META_KEY]: code } };
}

/**
 * Runs a handler; an EngramError becomes `isError` with its code and message, anything else an
 * uncoded `internal error` (never a crash). `USAGE` is the command line's code (exit status 2):
 * over MCP a wrong argument is `INVALID_INPUT`, the code an agent is told to expect.
 */
export async function guarded(run: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof EngramError) return fail(error.message, error.code === 'USAGE' ? 'INVALID_INPUT' : error.code);
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { content: [{ type: 'text', text: `internal error: ${message}; try again, and report it if it persists` }], isError: true };
  }
}
