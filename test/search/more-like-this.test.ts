import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinctiveTerms, moreLikeThis, VaultSearch } from '../../src/search/index.js';
import { indexState } from '../helpers/indexed-vault.js';
import { makeVault } from '../helpers/vault.js';

test('more like this: a note relates to the notes sharing its rarer words; pronouns are not its terms', (t) => {
  const vault = makeVault(t, {
    'People/Ana.md': 'He leads the walrus migration; he wrote the sonar plan for him and the team.\n',
    'Projects/Walrus.md': 'The walrus migration moves the sonar arrays north. He approved it.\n',
    'Projects/Other.md': 'Budget review for the kitchen, nothing about animals.\n',
    'Daily/Mon.md': 'Rain all day.\n',
    'Daily/Tue.md': 'Sun, then rain.\n',
    'Daily/Wed.md': 'Cold morning.\n',
  });
  const { db, root } = indexState(t, vault);
  const engine = VaultSearch.open(db, root);
  const doc = engine.metas.findIndex((meta) => meta.path === 'People/Ana.md');
  const terms = distinctiveTerms(db, engine.index, doc);
  assert.ok(terms.includes('walrus') && terms.includes('sonar'), terms.join(' '));
  assert.ok(!terms.includes('he') && !terms.includes('him'), `no pronouns: ${terms.join(' ')}`);
  const similar = moreLikeThis(db, engine.index, doc, 5);
  assert.equal(engine.metas[similar[0]!.doc]!.path, 'Projects/Walrus.md');
  assert.ok(!similar.some((hit) => hit.doc === doc), 'never itself');
});
