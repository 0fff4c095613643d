import type { PassageContext } from '../../contract/api-schemas.ts';
import { jsonReply, publicFetch } from './http-client.ts';

export type { PassageContext };

/** The passage with `radius` neighbours on each side, within its chapter. */
export function passageContextPath(id: string, radius: number): string {
  return `/passages/${encodeURIComponent(id)}/context?radius=${radius}`;
}

export async function fetchPassageContext(id: string, radius: number, signal?: AbortSignal): Promise<PassageContext> {
  const response = await publicFetch(passageContextPath(id, radius), { signal });
  return jsonReply<PassageContext>(response, 'This passage could not be found');
}
