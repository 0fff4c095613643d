import { expectOk, publicFetch } from './http-client.ts';

export interface Health {
  status: string;
  lineup: string;
  models: Array<{ id: string; family: string; name: string; dim: number; passages: number }>;
  corpus: { title: string; chapters: number; passages: number };
}

export async function fetchHealth(): Promise<Health> {
  return (await (await expectOk(await publicFetch('/health'), 'The server did not answer')).json()) as Health;
}
