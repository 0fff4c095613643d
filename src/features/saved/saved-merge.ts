/** A saved passage as this device keeps it. `owner` is the reader's name, or '' for a save made signed out (this device only). */
export interface LocalSaved {
  owner: string;
  id: string;
  /** The paragraph (`ch4#p12`); absent until the server has named it for a save made from a result's passage. */
  anchor?: string;
  passage?: string;
  chapter: string;
  excerpt: string;
  note: string;
  saved_at: number;
  updated_at: number;
  removed: boolean;
}

/** What the server keeps (GET /api/saved), in the fields the device keeps. */
export interface ServerSaved {
  id: string;
  anchor: string;
  chapter: string;
  excerpt: string;
  note: string;
  saved_at: number;
  updated_at: number;
}

/**
 * The reader's saved passages once the server has answered: the server's list, but for those with
 * a change still waiting in the outbox (the device's is newer, and on its way), kept as the
 * device has them. A save the server no longer lists, with nothing waiting, was removed on
 * another device (or forgotten on request), and goes here too.
 */
export function mergeSaved(owner: string, local: LocalSaved[], server: ServerSaved[], waiting: Set<string>): LocalSaved[] {
  const merged = new Map<string, LocalSaved>();
  for (const item of server) merged.set(item.id, { owner, ...item, removed: false });
  for (const item of local) {
    if (!waiting.has(item.id)) continue;
    const theirs = merged.get(item.id);
    if (!theirs || theirs.updated_at <= item.updated_at) merged.set(item.id, { ...theirs, ...item, chapter: item.chapter || theirs?.chapter || '', excerpt: item.excerpt || theirs?.excerpt || '' });
  }
  return [...merged.values()];
}

/** Shown newest first, removed ones left out. */
export function shownSaved(items: LocalSaved[]): LocalSaved[] {
  return items.filter((item) => !item.removed).sort((a, b) => b.saved_at - a.saved_at || a.id.localeCompare(b.id));
}

/** The reader's link to a saved passage: `/read/<part>#p<N>`, or the passage's own page until its paragraph is known. */
export function readLink(item: Pick<LocalSaved, 'anchor' | 'passage'>): string {
  if (item.anchor) return `/read/${item.anchor}`;
  return `/read/${item.passage ?? ''}`;
}

/** "paragraph 12" of `ch4#p12`. */
export function paragraphNumber(anchor: string | undefined): number | null {
  const match = /#p(\d+)$/.exec(anchor ?? '');
  return match ? Number(match[1]) : null;
}
