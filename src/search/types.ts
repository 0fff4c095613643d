/** A search result as the API sends it. */
export interface SearchResult {
  id?: string;
  text?: string;
  content?: string;
  model_type?: string;
  model?: string;
  similarity?: number;
  chapter?: string;
  section?: string | null;
  passage_index?: number;
  rank?: number;
  /** The sentence that best matches the query, by the model that found the passage. */
  highlight?: { start: number; end: number };
}

export type ResultLabel = 'A' | 'B';

export interface LabelledResult extends SearchResult {
  resultLabel: ResultLabel;
}

export function resultText(result: SearchResult): string {
  return result.text ?? result.content ?? '';
}
