/**
 * A tiny, deterministic, BERT-shaped embedding model written at test time, so the real
 * transformers.js loading path (config, WordPiece tokenizer, onnxruntime session, pooling) runs
 * in CI in about a second with no download. Tests never fetch a model.
 *
 * Files: `config.json` (model_type bert), `tokenizer.json` (WordPiece with BertNormalizer and a
 * `[CLS] A [SEP]` template), `tokenizer_config.json` (`model_max_length` 1e30 by default, the
 * value TaylorAI/bge-micro-v2 ships, so the truncation trap is real), `special_tokens_map.json`
 * and `onnx/model.onnx` (ONNX IR 8, opset 14, protobuf encoded by hand below).
 *
 * Graph, over int64 `input_ids`, `attention_mask`, `token_type_ids` of shape [batch, seq]:
 *   last_hidden_state = tanh((word[ids] + type[tt] + position[0..seq)) · W + b) · mask
 * `position` has `maxPosition` rows, so a sequence longer than that fails inside onnxruntime the
 * way a real BERT export does. W is near the identity, so the mean-pooled vector is a
 * bag-of-subwords: texts that share words are closer than texts that do not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TinyModelOptions {
  /** Hidden size = vector length (default 384, like bge-micro-v2). */
  dims?: number;
  /** Position rows; longer inputs fail in the model (default 512). */
  maxPosition?: number;
  /** The tokenizer's `model_max_length` (default 1e30, bge-micro-v2's value). */
  modelMaxLength?: number;
  /** Weight seed; the same seed writes byte-identical files (default 1). */
  seed?: number;
  /** Extra whole words for the vocabulary (lower-cased); others split into letters. */
  words?: readonly string[];
  /** Also write `onnx/model_quantized.onnx` (same graph) so dtype `q8` loads (default false). */
  quantizedCopy?: boolean;
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const PUNCTUATION = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const SUFFIXES = ['##s', '##es', '##ed', '##ing', '##ly', '##er', '##est', '##tion', '##ment', '##ness'];
const COMMON_WORDS = `the of and to a in is it you that he was for on are with as i his they be at one have this from
or had by not word but what some we can out other were all there when up use your how said an each she which do their time
if will way about many then them write would like so these her long make thing see him two has look more day could go come
did number sound no most people my over know water than call first who may down side been now find any new work part take
get place made live where after back little only round man year came show every good me give our under name very through
just form sentence great think say help low line turn cause much mean before move right boy old too same tell does set three
want air well also play small end put home read hand port large spell add even land here must big high such follow act why
ask men change went light kind off need house picture try us again animal point mother world near build self earth father
head stand own page should country found answer school grow study still learn plant cover food sun four between state keep
eye never last let thought city tree cross farm hard start might story saw far sea draw left late run while press close night
real life few north open seem together next white children begin got walk example paper group always music those both mark
often letter until mile river car feet care second book carry took science eat room friend began idea fish mountain stop once
base hear horse cut sure watch color face wood main enough plain girl usual young ready above ever red list though feel talk
bird soon body dog family direct leave song measure door product black short class wind question happen complete ship area
half rock order fire south problem piece told knew pass since top whole king space heard best hour better true during hundred
five remember step early hold west ground interest reach fast sing listen six table travel less morning ten simple several
toward war lay against pattern slow center love person money serve appear road map rain rule pull cold notice voice unit power
town fine certain fly fall lead cry dark machine note wait plan figure star box field rest correct able pound done beauty drive
stood contain front teach week final gave green quick develop ocean warm free minute strong special mind behind clear tail
produce fact street inch nothing course stay wheel full force blue object decide surface deep moon island foot system busy test
record boat common gold possible plane dry wonder laugh thousand ago ran check game shape hot miss brought heat snow bring yes
distant fill east paint language among cat mat sat vault graph link tag project meeting daily todo task search query index
embedding vector model file folder markdown obsidian knowledge retrieval server client tool cron watch database sqlite bread
starter loaf invoice bill plumber euro budget quantum physics black hole garden recipe`
  .split(/\s+/)
  .filter(Boolean);

/** Writes the model into `dir` (created if needed) and returns `dir`. Takes about 0.1 s. */
export function writeTinyModel(dir: string, options: TinyModelOptions = {}): string {
  const dims = options.dims ?? 384;
  const maxPosition = options.maxPosition ?? 512;
  const vocab = vocabulary(options.words ?? []);
  const random = gaussian(options.seed ?? 1);
  const model = encodeModel(dims, maxPosition, vocab.length, random);

  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const json = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
  json('config.json', {
    _name_or_path: 'tiny-bert-test',
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: dims,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: dims,
    max_position_embeddings: maxPosition,
    type_vocab_size: 2,
    vocab_size: vocab.length,
    pad_token_id: 0,
    hidden_act: 'tanh',
    layer_norm_eps: 1e-12,
    torch_dtype: 'float32',
  });
  json('tokenizer.json', tokenizerJson(vocab));
  json('tokenizer_config.json', {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    tokenize_chinese_chars: true,
    strip_accents: null,
    clean_up_tokenization_spaces: true,
    model_max_length: options.modelMaxLength ?? 1e30,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  });
  json('special_tokens_map.json', { cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), model);
  if (options.quantizedCopy) writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), model);
  return dir;
}

function vocabulary(extra: readonly string[]): string[] {
  const words = [...SPECIAL, ...LETTERS, ...PUNCTUATION, ...LETTERS.map((c) => `##${c}`), ...SUFFIXES, ...COMMON_WORDS, ...extra.map((w) => w.toLowerCase())];
  return [...new Set(words)];
}

function tokenizerJson(vocab: readonly string[]) {
  const id = new Map(vocab.map((token, i) => [token, i]));
  const special = (token: string) => ({ id: token, ids: [id.get(token)], tokens: [token] });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: id.get(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': special('[CLS]'), '[SEP]': special('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(id) },
  };
}

/** Seeded standard normal samples (mulberry32 + Box–Muller): same seed, same weights, same bytes. */
function gaussian(seed: number): () => number {
  let state = seed | 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    let u = 0;
    while (u === 0) u = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}

function normals(count: number, scale: number, random: () => number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = random() * scale;
  return out;
}

function encodeModel(dims: number, maxPosition: number, vocabSize: number, random: () => number): Uint8Array {
  const word = normals(vocabSize * dims, 1.5 / Math.sqrt(dims), random);
  word.fill(0, 0, dims); // [PAD] embeds to zero
  const type = normals(2 * dims, 0.02, random);
  const position = normals(maxPosition * dims, 0.05 / Math.sqrt(dims), random);
  const mixing = normals(dims * dims, 1 / Math.sqrt(dims), random);
  for (let i = 0; i < dims; i++) mixing[i * dims + i] = mixing[i * dims + i]! + 1; // near-identity keeps bag-of-words similarity

  const initializers = [
    tensor('word', [vocabSize, dims], FLOAT, word),
    tensor('type', [2, dims], FLOAT, type),
    tensor('position', [maxPosition, dims], FLOAT, position),
    tensor('W', [dims, dims], FLOAT, mixing),
    tensor('b', [dims], FLOAT, new Float32Array(dims)),
    tensor('one', [], INT64, BigInt64Array.of(1n)),
    tensor('zero', [], INT64, BigInt64Array.of(0n)),
    tensor('last_axis', [1], INT64, BigInt64Array.of(-1n)),
  ];
  const axis0 = [attribute('axis', ATTR_INT, 0)];
  const nodes = [
    node('Gather', ['word', 'input_ids'], ['we'], axis0),
    node('Gather', ['type', 'token_type_ids'], ['te'], axis0),
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'one'], ['seq_len'], axis0),
    node('Range', ['zero', 'seq_len', 'one'], ['position_ids']),
    node('Gather', ['position', 'position_ids'], ['pe'], axis0),
    node('Add', ['we', 'te'], ['s1']),
    node('Add', ['s1', 'pe'], ['s2']),
    node('MatMul', ['s2', 'W'], ['mm']),
    node('Add', ['mm', 'b'], ['mmb']),
    node('Tanh', ['mmb'], ['act']),
    node('Cast', ['attention_mask'], ['mask_f'], [attribute('to', ATTR_INT, FLOAT)]),
    node('Unsqueeze', ['mask_f', 'last_axis'], ['mask3']),
    node('Mul', ['act', 'mask3'], ['last_hidden_state']),
  ].map((n, i) => n(i));
  const ids = ['batch_size', 'sequence_length'];
  // GraphProto: node 1, name 2, initializer 5, input 11, output 12.
  const graph = concat([
    ...nodes.map((n) => bytesField(1, n)),
    stringField(2, 'tiny_bert'),
    ...initializers.map((t) => bytesField(5, t)),
    bytesField(11, valueInfo('input_ids', INT64, ids)),
    bytesField(11, valueInfo('attention_mask', INT64, ids)),
    bytesField(11, valueInfo('token_type_ids', INT64, ids)),
    bytesField(12, valueInfo('last_hidden_state', FLOAT, [...ids, dims])),
  ]);
  // ModelProto: ir_version 1, producer_name 2, producer_version 3, graph 7, opset_import 8 {domain 1, version 2}.
  return concat([intField(1, 8), stringField(2, 'engram-tiny-model'), stringField(3, '1'), bytesField(7, graph), bytesField(8, concat([stringField(1, ''), intField(2, 14)]))]);
}

// A minimal protobuf writer: just the wire types the ONNX messages above need.
const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;
const utf8 = new TextEncoder();

function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value)); // int64 negatives as 10-byte two's complement
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return Uint8Array.from(out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const tag = (field: number, wire: number) => varint((field << 3) | wire);
const intField = (field: number, value: number | bigint) => concat([tag(field, 0), varint(value)]);
const bytesField = (field: number, bytes: Uint8Array) => concat([tag(field, 2), varint(bytes.length), bytes]);
const stringField = (field: number, text: string) => bytesField(field, utf8.encode(text));

/** TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian, as typed arrays are here). */
function tensor(name: string, dims: readonly number[], dataType: number, data: Float32Array | BigInt64Array): Uint8Array {
  return concat([...dims.map((d) => intField(1, d)), intField(2, dataType), stringField(8, name), bytesField(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength))]);
}

/** AttributeProto: name 1, i 3, type 20. */
function attribute(name: string, type: number, value: number): Uint8Array {
  return concat([stringField(1, name), intField(3, value), intField(20, type)]);
}

/** NodeProto: input 1, output 2, name 3, op_type 4, attribute 5. */
function node(op: string, inputs: readonly string[], outputs: readonly string[], attributes: readonly Uint8Array[] = []) {
  return (index: number) => concat([...inputs.map((s) => stringField(1, s)), ...outputs.map((s) => stringField(2, s)), stringField(3, `${op}_${index}`), stringField(4, op), ...attributes.map((a) => bytesField(5, a))]);
}

/** ValueInfoProto {name 1, type 2}; TypeProto {tensor_type 1}; Tensor {elem_type 1, shape 2}; Dim {dim_value 1, dim_param 2}. */
function valueInfo(name: string, elementType: number, dims: readonly (number | string)[]): Uint8Array {
  const shape = concat(dims.map((d) => bytesField(1, typeof d === 'string' ? stringField(2, d) : intField(1, d))));
  return concat([stringField(1, name), bytesField(2, bytesField(1, concat([intField(1, elementType), bytesField(2, shape)])))]);
}
