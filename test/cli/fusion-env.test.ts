/** ENGRAM_FUSION_K / ENGRAM_FUSION_WEIGHTS: read once, checked, with a one-line error naming the variable. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fusionOptions, readCliEnv } from '../../src/cli/context.js';

test('fusion settings: defaults, either lane named, k, and clear errors', () => {
  assert.deepEqual(readCliEnv({}).fusion, { k: 60, weights: { keyword: 1, semantic: 1 } });
  assert.deepEqual(fusionOptions(undefined, 'semantic=0.5'), { k: 60, weights: { keyword: 1, semantic: 0.5 } });
  assert.deepEqual(fusionOptions('20', ' keyword: 2 , semantic=0 '), { k: 20, weights: { keyword: 2, semantic: 0 } });
  assert.deepEqual(readCliEnv({ ENGRAM_FUSION_WEIGHTS: 'keyword=0.5' }).fusion.weights, { keyword: 0.5, semantic: 1 });
  assert.throws(() => fusionOptions(undefined, 'vectors=2'), /ENGRAM_FUSION_WEIGHTS must look like keyword=1,semantic=0.5/);
  assert.throws(() => fusionOptions(undefined, 'semantic=-1'), /ENGRAM_FUSION_WEIGHTS must look like/);
  assert.throws(() => fusionOptions(undefined, 'keyword=0,semantic=0'), /both lanes weight 0/);
  assert.throws(() => fusionOptions('zero', undefined), /ENGRAM_FUSION_K must be a positive number/);
});
