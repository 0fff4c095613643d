import type { Health } from '../../../contract/api-schemas.ts';
import { jsonReply, publicFetch } from '../../lib/api/http-client.ts';

export type { Health };

export const HEALTH_PATH = '/health';

export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return jsonReply<Health>(await publicFetch(HEALTH_PATH, { signal }), 'The server did not answer');
}
