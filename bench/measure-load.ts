import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

type OneRequest = { method: 'POST' | 'GET'; path: string; headers: Record<string, string>; body?: string };

/**
 * Drives the server with autocannon for `seconds` at `connections`. Either cycles through
 * `requests`, or sends `unique`, whose body `makeBody` builds afresh for every request.
 */
export async function measureLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  requests?: OneRequest[];
  unique?: OneRequest & { makeBody: () => string };
}): Promise<LoadResult> {
  const unique = options.unique;
  const requests: autocannon.Request[] = unique
    ? [{ method: unique.method, path: unique.path, headers: unique.headers, setupRequest: (req) => ({ ...req, body: unique.makeBody() }) }]
    : (options.requests ?? []);
  const result = await autocannon({ url: options.url, connections: options.connections, duration: options.seconds, requests });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
