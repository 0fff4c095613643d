import type { SearchResult } from '../../lib/search-result.ts';
import { ApiError } from '../../lib/api/api-error.ts';
import { jsonReply, publicFetch } from '../../lib/api/http-client.ts';

/**
 * POST /search with the query and which models to use ('both'); no token is attached; `signal`
 * aborts it. A failure says the server's detail, else 'Search failed' (product spec), no answer
 * at all included.
 */
export async function searchPassages(query: string, models: string, signal?: AbortSignal): Promise<SearchResult[]> {
  const response = await publicFetch('/search', { method: 'POST', body: JSON.stringify({ query, models }), signal }, 'Search failed');
  const body = await jsonReply<unknown>(response, 'Search failed');
  if (!Array.isArray(body)) throw new ApiError('server', 'Search failed', response.status);
  return body as SearchResult[];
}
