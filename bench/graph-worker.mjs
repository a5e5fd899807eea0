// The graph suite, one process: index the vault (not timed), then time a structural extraction
// run (entity notes written through the write layer), a second run with nothing changed, and a
// consolidation pass. Runs the built code (dist/). Prints one JSON line.
import { openStateDb, runIndex } from '../dist/index/index.js';
import { lexicalExtension } from '../dist/search/index.js';
import { consolidate, GraphStore, runGraphIndex, structuralExtractor } from '../dist/graph/index.js';
import { VaultWriter } from '../dist/writes/index.js';

const [vault, home] = process.argv.slice(2);
const { db } = openStateDb(home);
let started = performance.now();
runIndex(db, { root: vault, extensions: [lexicalExtension()] });
const indexMs = performance.now() - started;
const writer = new VaultWriter({ root: vault, db, stateDir: home, agentRoot: 'Claude', runId: 'bench' });
const run = () => runGraphIndex({ root: vault, db, extractor: structuralExtractor(db), writer, agentRoot: 'Claude' });
started = performance.now();
const first = await run();
const graphMs = performance.now() - started;
started = performance.now();
const second = await run();
const againMs = performance.now() - started;
started = performance.now();
const proposals = await consolidate(new GraphStore(db, 'Claude'), db, writer, {});
const consolidateMs = performance.now() - started;
db.close();
console.log(
  JSON.stringify({
    indexMs,
    graphMs,
    againMs,
    consolidateMs,
    processed: first.processed,
    entities: first.entities,
    entityNotes: first.entityNotesWritten,
    againProcessed: second.processed,
    proposals: proposals.proposed.length,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
