import { expectOk, publicFetch } from './http-client.ts';

export interface PassageContext {
  id: string;
  chapter: string;
  section: string | null;
  passages: Array<{ id: string; text: string; passage_index: number; section: string | null }>;
  notes: Array<{ label: string; text: string }>;
}

export async function fetchPassageContext(id: string, radius: number): Promise<PassageContext> {
  const response = await publicFetch(`/passages/${encodeURIComponent(id)}/context?radius=${radius}`);
  return (await (await expectOk(response, 'This passage could not be found')).json()) as PassageContext;
}
