import { expectOk, publicFetch } from './http-client.ts';

export interface PassageContext {
  id: string;
  chapter: string;
  section: string | null;
  passages: Array<{ id: string; text: string; passage_index: number; section: string | null }>;
  notes: Array<{ label: string; text: string }>;
}

/** The passage with `radius` neighbours on each side, within its chapter. */
export function passageContextPath(id: string, radius: number): string {
  return `/passages/${encodeURIComponent(id)}/context?radius=${radius}`;
}

export async function fetchPassageContext(id: string, radius: number, signal?: AbortSignal): Promise<PassageContext> {
  const response = await publicFetch(passageContextPath(id, radius), { signal });
  return (await (await expectOk(response, 'This passage could not be found')).json()) as PassageContext;
}
