import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NGINX_TEMPLATE, renderNginxConfig } from '../../scripts/cluster-nginx.ts';
import { BODY_LIMIT_BYTES, SAVE_BODY_LIMIT_BYTES } from '../../server/platform/http/body-limits.ts';
import { QUERY_READ_TIMEOUT_MS } from '../../server/platform/store/db.ts';

/** nginx's size syntax: 512, 64k, 5m, 1g. */
function bytes(size: string): number {
  const [, n, unit] = /^(\d+)([kmg]?)$/i.exec(size)!;
  return Number(n) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit!.toLowerCase() as '' | 'k' | 'm' | 'g'];
}

describe('the cluster’s nginx configuration', () => {
  const config = renderNginxConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), { prefix: '/tmp/x', port: 8080, upstreamPorts: [8081, 8082] });

  it('lets through every body the server takes, so that the server answers an over-large one with its own JSON 413', () => {
    const limit = bytes(/client_max_body_size\s+(\S+);/.exec(config)![1]!);
    expect(limit).toBeGreaterThan(SAVE_BODY_LIMIT_BYTES);
    expect(limit).toBeGreaterThan(BODY_LIMIT_BYTES);
  });

  it('waits for an instance longer than a request can wait for a database that does not answer, so the reader gets its JSON 503', () => {
    const seconds = Number(/proxy_read_timeout\s+(\d+)s;/.exec(config)![1]);
    // Two queries one after the other, and 3 s for a connection from the pool.
    expect(seconds * 1000).toBeGreaterThan(2 * QUERY_READ_TIMEOUT_MS + 3_000);
  });

  it('sends readers to every instance', () => {
    expect(config).toContain('server 127.0.0.1:8081');
    expect(config).toContain('server 127.0.0.1:8082');
  });
});
