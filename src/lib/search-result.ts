import type { SearchResult as ApiSearchResult } from '../../contract/api-schemas.ts';
import type { ResultLabel } from '../../contract/vocabulary.ts';

export type { ResultLabel };

/**
 * A search result as received. Our server always sends every field of the contract; the spec
 * lets another server send `content` instead of `text`, so the client reads what is there.
 */
export type SearchResult = Partial<ApiSearchResult> & { content?: string };

export interface LabelledResult extends SearchResult {
  resultLabel: ResultLabel;
}

export function resultText(result: SearchResult): string {
  return result.text ?? result.content ?? '';
}
