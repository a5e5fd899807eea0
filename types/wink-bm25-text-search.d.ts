declare module 'wink-bm25-text-search' {
  // Each task takes whatever the previous one returned (the text for the first): untyped by design.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type PrepTask = (input: any) => any;
  interface BM25Config {
    fldWeights: Record<string, number>;
    bm25Params?: { k1?: number; b?: number; k?: number };
    ovFldNames?: string[];
  }
  interface BM25Engine {
    defineConfig(config: BM25Config): boolean;
    definePrepTasks(tasks: PrepTask[], field?: string): number;
    addDoc(doc: Record<string, unknown>, id: string | number): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number, filter?: (fieldValues: Record<string, unknown>, params: unknown) => boolean, params?: unknown): Array<[string, number]>;
    exportJSON(): string;
    importJSON(json: string): boolean;
    reset(): boolean;
    getTotalDocs(): number;
  }
  function bm25(): BM25Engine;
  export = bm25;
}
