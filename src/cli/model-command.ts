/**
 * `engram model status | pull | install PATH`: what model is configured, where it is looked for,
 * which files are there (sizes, sha256), whether it loads and agrees with Smart Connections'
 * vectors; fetching it; installing a copy fetched elsewhere. Progress goes to stderr.
 */
import { EngramError, UsageError } from '../errors.js';
import { installModel, MODEL_REMEDY, modelStatus, pullModel, type ModelManifest, type ModelStatus } from '../embed/index.js';
import { numberValue, shellWord, shownArg, type Command } from './command.js';
import { openSession, positiveNumber, type CliEnv, type Output } from './context.js';
import { checkAgreement, type Agreement } from './verify-command.js';

export const modelCommand: Command = {
  name: 'model',
  summary: 'The embedding model: `status` (files, sha256, loads, dimension, agreement with Smart Connections), `pull` (download and install), `install PATH` (from a folder or .tar.gz/.zip fetched elsewhere).',
  positionals: 'status|pull|install [PATH]',
  maxPositionals: 2,
  options: {
    dtype: { type: 'string', value: 'q8|fp32', description: 'pull: which weights to fetch (default q8, what Smart Connections runs)' },
    timeout: { type: 'string', value: 'SECONDS', description: 'pull: give up on a file when no data arrives for this long (default 30)' },
    sample: { type: 'string', value: 'N', description: 'status: Smart Connections items to re-embed for the agreement check (default 20)' },
  },
  async run(args, { env, io }) {
    const [action, path] = args.positionals;
    const json = args.values.json === true;
    const onLog = (line: string) => io.err(line);
    if (action === 'status' || action === undefined) return status(env, io, args.values.vault as string | undefined, json, numberValue(args.values.sample) ?? 20);
    if (action === 'install') {
      if (path === undefined) throw new UsageError('engram model install needs a PATH: a folder or a .tar.gz/.tgz/.zip of the model files');
      const manifest = await installModel(env, path, onLog);
      io.out(json ? JSON.stringify(manifest, null, 2) : describeInstall('installed', manifest));
      return 0;
    }
    if (action === 'pull') {
      if (path !== undefined) throw new UsageError(`engram model pull takes no PATH (it fetches ${env.model}); to install files you have, run \`engram model install ${shellWord(path)}\``);
      const dtype = (args.values.dtype as string | undefined) ?? 'q8';
      if (dtype !== 'q8' && dtype !== 'fp32') throw new UsageError(`--dtype must be q8 or fp32, not ${shownArg(dtype)}`);
      const stallMs = (positiveNumber(args.values.timeout, '--timeout') ?? 30) * 1000;
      const manifest = await pullModel(env, { dtype, stallMs, onProgress: progress(io), onLog });
      io.out(json ? JSON.stringify(manifest, null, 2) : describeInstall('pulled and installed', manifest));
      return 0;
    }
    throw new UsageError(`unknown model action ${shownArg(action)}; use status, pull or install PATH`);
  },
};

/** One stderr line per file per tenth (a redrawn bar on a terminal), never on stdout. */
function progress(io: Output): (file: string, received: number, total: number | null) => void {
  const shown = new Map<string, number>();
  return (file, received, total) => {
    const tenth = total ? Math.floor((received / total) * 10) : Math.floor(received / 1e7);
    if (shown.get(file) === tenth) return;
    shown.set(file, tenth);
    const bar = total ? `[${'#'.repeat(tenth)}${'.'.repeat(10 - tenth)}] ${Math.round((received / total) * 100)}%` : '';
    io.err(`${file} ${bar} ${mb(received)}${total ? ` of ${mb(total)}` : ''}`.replace(/\s+/g, ' '));
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function describeInstall(verb: string, manifest: ModelManifest): string {
  return [`${verb} ${manifest.model} (${manifest.dims} dims, ${manifest.dtype} weights) from ${manifest.source}`, ...manifest.files.map((file) => `  ${file.path.padEnd(28)} ${String(file.size).padStart(11)}  ${file.sha256}`)].join('\n');
}

async function status(env: CliEnv, io: Output, vaultFlag: string | undefined, json: boolean, sample: number): Promise<number> {
  if (!Number.isInteger(sample) || sample < 1) throw new UsageError('--sample must be a whole number ≥ 1');
  const report = await modelStatus(env, { load: true, onLog: (line) => io.err(line) });
  let agreement: Agreement | { error: string } | null = null;
  if ((vaultFlag ?? env.vault) && report.loads?.ok) {
    const session = openSession(vaultFlag, env);
    try {
      agreement = await checkAgreement(session.vault, env, io, sample, 1);
    } catch (error) {
      if (!(error instanceof EngramError)) throw error;
      agreement = { error: error.message };
    } finally {
      session.close();
    }
  }
  const ok = report.installed && report.loads?.ok === true && !(agreement && 'agrees' in agreement && !agreement.agrees);
  io.out(json ? JSON.stringify({ ...report, agreement, ok }, null, 2) : describeStatus(report, agreement));
  return ok ? 0 : 1;
}

function describeStatus(report: ModelStatus, agreement: Agreement | { error: string } | null): string {
  const lines = [`model        ${report.model}${report.known ? ` (${report.known.about}, ${report.known.dims} dims)` : ' (not one Engram knows by name)'}`, `looked for   ${report.folder}`];
  if (report.files.length === 0) lines.push('files        none');
  for (const [i, file] of report.files.entries()) {
    const note = file.recorded === 'differs' ? '  CHANGED since install' : file.recorded === 'not recorded' ? '  (not recorded at install)' : '';
    lines.push(`${i === 0 ? 'files       ' : '            '} ${file.path.padEnd(28)} ${String(file.size).padStart(11)}  ${file.sha256}${note}`);
  }
  if (report.missing.length > 0) lines.push(`missing      ${report.missing.join(', ')}`);
  if (report.manifest) lines.push(`installed    ${report.manifest.installed_at} from ${report.manifest.source}`);
  lines.push(`loads        ${report.loads === null ? 'not tried (files missing)' : report.loads.ok ? `yes: ${report.loads.dims} dims, ${report.loads.dtype} weights` : `NO: ${report.loads.reason}`}`);
  if (report.failure) lines.push(`last failure ${report.failure.kind} at ${report.failure.at}: ${report.failure.error}${report.failure.kind === 'download' ? ` (next automatic try after ${report.failure.retry_after})` : ''}`);
  if (agreement !== null) {
    lines.push(
      'error' in agreement
        ? `agreement    not checked: ${agreement.error}`
        : `agreement    ${agreement.agrees ? 'agrees' : 'DISAGREES'} with Smart Connections: cosine median ${agreement.median}, worst ${agreement.worst} over ${agreement.sampled} items`,
    );
  }
  if (!report.installed || report.loads?.ok === false) lines.push(`remedy       ${MODEL_REMEDY}`);
  return lines.join('\n');
}
