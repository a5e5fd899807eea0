/**
 * What gets embedded, built exactly as the Smart Connections plugin builds it, so a local vector
 * for a note or block lands in the same space as the plugin's (research: smart-connections-format
 * §A10). Pure: text in, text out; the token counter is passed in.
 *
 * - Source: the path with `/` → ` > ` and its first `.md` removed, `:` and a newline, then the
 *   content; the whole cut to `floor(max_tokens · 3.7)` UTF-16 units (1,894 for 512 tokens).
 * - Block: breadcrumbs (the full block key with `/` → ` > `, split on `#`, last piece dropped,
 *   joined with ` > `, first `.md` removed), a newline, then the block text. No character cap.
 * - Both: if the tokenizer counts more than `max_tokens`, the plugin's trimming loop.
 */

export const INPUT_DEFAULTS = {
  /** The model's token window, [CLS] and [SEP] included (bge-micro-v2: 512). */
  maxTokens: 512,
  /** Source inputs are cut to this many UTF-16 units: the plugin's `floor(512 · 3.7)`. */
  maxInputChars: 1894,
} as const;

/**
 * Names the input preparation in the vector cache key (content hash, model, this). Bump it when
 * any function here, or the truncation in inference.ts, changes what a text embeds as.
 */
export const INPUT_PREP_VERSION = 'sc-a10.1';

/** The plugin's source input. Empty content gives '' — the plugin embeds nothing for it. */
export function sourceEmbedInput(path: string, text: string, maxInputChars: number = INPUT_DEFAULTS.maxInputChars): string {
  if (text === '') return '';
  const breadcrumbs = path.split('/').join(' > ').replace('.md', '');
  // String.prototype.substring, like the plugin: it may split a surrogate pair at the cut.
  return `${breadcrumbs}:\n${text}`.substring(0, maxInputChars);
}

/**
 * The plugin's block breadcrumbs for `path` + `blockKey` (`#A#B#{1}` → `folder > note > A > B`).
 * Mirrors its string operations step by step, quirks included: a `/` inside a heading becomes
 * ` > `, a `#` inside the path splits it, `##H2` yields an empty crumb, and only the first `.md`
 * anywhere in the key is removed.
 */
export function blockBreadcrumbs(path: string, blockKey: string): string {
  return `${path}${blockKey}`.split('/').join(' > ').split('#').slice(0, -1).join(' > ').replace('.md', '');
}

/** The plugin's block input: breadcrumbs, a newline, the block text (its lines, joined with `\n`). */
export function blockEmbedInput(path: string, blockKey: string, blockText: string): string {
  return `${blockBreadcrumbs(path, blockKey)}\n${blockText}`;
}

/**
 * The plugin's token budget: while the text counts more than `maxTokens` tokens, cut it to
 * `floor(length · maxTokens / tokens · 0.9)` UTF-16 units, back to the last space (if one is
 * past the start), and count again. `countTokens` counts as the model's tokenizer does,
 * special tokens included. Returns the text unchanged when it fits.
 */
export function trimToTokenBudget(text: string, countTokens: (text: string) => number, maxTokens: number): string {
  let tokens = countTokens(text);
  let trimmed = text;
  while (tokens > maxTokens && trimmed.length > 0) {
    trimmed = trimmed.slice(0, Math.floor(trimmed.length * (maxTokens / tokens) * 0.9));
    const lastSpace = trimmed.lastIndexOf(' ');
    if (lastSpace > 0) trimmed = trimmed.slice(0, lastSpace);
    tokens = countTokens(trimmed);
  }
  return trimmed;
}
