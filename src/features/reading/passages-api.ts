import type { PassageContext } from '../../../contract/api-schemas.ts';
import { jsonReply, publicFetch } from '../../lib/api/http-client.ts';

export type { PassageContext };

/** How far a reading reaches either side of its passage, within the chapter. */
export interface Reach {
  before: number;
  after: number;
}

/** The passage with `before` neighbours before it and `after` after it, within its chapter. */
export function passageContextPath(id: string, reach: Reach): string {
  return `/passages/${encodeURIComponent(id)}/context?before=${reach.before}&after=${reach.after}`;
}

export async function fetchPassageContext(id: string, reach: Reach, signal?: AbortSignal): Promise<PassageContext> {
  const response = await publicFetch(passageContextPath(id, reach), { signal });
  return jsonReply<PassageContext>(response, 'This passage could not be found');
}
