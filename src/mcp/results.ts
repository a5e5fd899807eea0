/**
 * Tool results: text for the model plus the same data as `structuredContent`; failures as
 * `isError` with a sentence that says what to do next. Expected errors never escape as throws.
 */
import { EngramError } from '../errors.js';

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

export function fail(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a handler; an EngramError becomes `isError` with its message, anything else too (never a crash). */
export async function guarded(run: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof EngramError) return fail(error.message);
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return fail(`internal error: ${message}; try again, and report it if it persists`);
  }
}
