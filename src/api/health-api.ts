import type { Health } from '../../contract/api-schemas.ts';
import { expectOk, publicFetch } from './http-client.ts';

export type { Health };

export const HEALTH_PATH = '/health';

export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return (await (await expectOk(await publicFetch(HEALTH_PATH, { signal }), 'The server did not answer')).json()) as Health;
}
