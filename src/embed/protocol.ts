/** The messages between the embedder (main thread) and its worker thread, which owns the model. */

/** The ONNX weights to load: `fp32` is `onnx/model.onnx`, `q8` is `onnx/model_quantized.onnx`. */
export type ModelDtype = 'fp32' | 'q8';

/** Passed as `workerData`. */
export interface WorkerSettings {
  /** A hub id (`org/name`, looked up under `modelDir`) or an absolute folder. */
  model: string;
  modelDir: string;
  allowDownload: boolean;
  /** Where a download comes from (a Hugging Face Hub URL layout); default the hub itself. */
  remoteHost?: string;
  dtype: ModelDtype;
  maxTokens: number;
  verbose: boolean;
}

export type WorkerRequest = { kind: 'embed'; id: number; texts: string[] };

export type WorkerReply =
  | { kind: 'ready'; dims: number; loadMs: number }
  | { kind: 'failed'; reason: string }
  /** `texts.length` rows of `dims` floats, row-major; the buffer is transferred, not copied. */
  | { kind: 'vectors'; id: number; dims: number; data: Float32Array }
  | { kind: 'error'; id: number; message: string };
