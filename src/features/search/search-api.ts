import type { SearchResult } from '../../lib/search-result.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { jsonReply, readerFetch } from '../../lib/api/http-client.ts';

/**
 * POST /search with the query and which models to use ('both'), with the reader's token when
 * signed in (the results then carry the search's receipt, which votes copy); `signal`
 * aborts it. A failure says the server's detail, else 'Search failed' (product spec), no answer
 * at all included.
 */
export async function searchPassages(query: string, models: string, signal?: AbortSignal): Promise<SearchResult[]> {
  const response = await readerFetch('/search', { method: 'POST', body: JSON.stringify({ query, models }), signal }, 'Search failed');
  const body = await jsonReply<unknown>(response, 'Search failed');
  if (!Array.isArray(body)) throw new ApiError('server', 'Search failed', response.status);
  return body as SearchResult[];
}
