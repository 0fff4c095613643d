import { expectOk, publicFetch } from './http-client.ts';

export interface Health {
  status: string;
  lineup: string;
  models: Array<{ id: string; family: string; name: string; dim: number; passages: number }>;
  corpus: { title: string; chapters: number; passages: number };
}

export const HEALTH_PATH = '/health';

export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  return (await (await expectOk(await publicFetch(HEALTH_PATH, { signal }), 'The server did not answer')).json()) as Health;
}
