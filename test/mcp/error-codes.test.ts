/**
 * Error codes reach MCP results: `isError` with the code leading the text (`[CODE] what
 * happened; what to do`) and in `_meta`, so an agent can branch on it — through the real SDK
 * client in memory, from the failures agents actually meet.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngramError, ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import { ERROR_META_KEY, guarded } from '../../src/mcp/results.js';
import { connectFixture, MCP_VAULT } from '../helpers/mcp.js';

type Reply = { isError?: boolean; content: { text?: string }[]; _meta?: Record<string, unknown> };

function codeOf(reply: Reply): { code: unknown; text: string } {
  assert.equal(reply.isError, true, reply.content[0]?.text);
  return { code: reply._meta?.[ERROR_META_KEY], text: reply.content[0]?.text ?? '' };
}

test('every code an EngramError carries leads the isError text and is in _meta', async () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const reply = await guarded(() => {
      throw new EngramError(code, 'what happened; what to do');
    });
    // USAGE is the command line's alone (exit status 2); over MCP a wrong argument is INVALID_INPUT.
    const shown = code === 'USAGE' ? 'INVALID_INPUT' : code;
    assert.deepEqual(codeOf(reply as Reply), { code: shown, text: `[${shown}] what happened; what to do` });
  }
  const internal = (await guarded(() => {
    throw new Error('boom');
  })) as Reply;
  assert.equal(internal.isError, true);
  assert.match(internal.content[0]!.text!, /^internal error: boom; try again/, "an unexpected throw has no code: it is not the agent's to handle");
});

test('write tools: each refusal an agent meets carries its code and the remedy', async (t) => {
  const { call, vault } = await connectFixture(t, { ...MCP_VAULT, 'Claude/Taken.md': '# Taken\n' });
  const expect = async (name: string, args: Record<string, unknown>, code: ErrorCode, remedy: RegExp) => {
    const { code: got, text } = codeOf((await call(name, args)) as Reply);
    assert.equal(got, code, `${name} ${JSON.stringify(args)}: ${text}`);
    assert.ok(text.startsWith(`[${code}] `), text);
    assert.match(text, remedy, text);
  };
  await expect('write_note', { path: 'Claude/Audit.md', content: 'x', overwrite: true }, 'WRITE_REFUSED', /Audit\.md is the write journal's trail; Engram keeps it itself/);
  await expect('write_note', { path: 'Claude/Graph/People/X.md', content: 'x' }, 'WRITE_REFUSED', /correct facts through them/);
  await expect('write_note', { path: 'Claude/Taken.md', content: 'x' }, 'CONFLICT', /exists already; choose another title or ask to overwrite it/);
  await expect('write_note', { token: 'f'.repeat(32) }, 'PREVIEW_EXPIRED', /preview the write again/);
  await expect('undo_write', { id: 999 }, 'NOT_FOUND', /no write #999 in the journal/);
  await expect('write_note', { path: 'Claude/Zero.md', content: 'a\u0000b' }, 'INVALID_INPUT', /NUL byte; notes are text — remove it/);
  await expect('write_note', { path: 'Claude/NoContent.md' }, 'INVALID_INPUT', /give the note's content/);

  // A preview applied twice: the second time the token is spent.
  const preview = (await call('append_note', { path: 'Glossary.md', content: 'RRF: reciprocal rank fusion.' })) as Reply & { structuredContent?: { token?: string } };
  const token = preview.structuredContent?.token;
  assert.ok(token, preview.content[0]?.text);
  assert.equal(((await call('append_note', { token })) as Reply).isError, undefined);
  await expect('append_note', { token }, 'PREVIEW_EXPIRED', /used already; preview again/);

  // The agent's own write to a human's note, undone after the human edited it: a conflict.
  const written = (await call('append_note', { path: 'People/Lena.md', content: 'Met her in March.' })) as Reply & { structuredContent?: { token?: string } };
  const applied = (await call('append_note', { token: written.structuredContent?.token })) as Reply & { structuredContent?: { journal_id?: number } };
  const path = join(vault.root, 'People/Lena.md');
  writeFileSync(path, `${readFileSync(path, 'utf8')}edited by hand\n`);
  await expect('undo_write', { id: applied.structuredContent!.journal_id! }, 'CONFLICT', /has changed since write #\d+; undoing it would lose those changes/);
});
