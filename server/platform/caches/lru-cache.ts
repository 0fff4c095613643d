import { LRUCache } from 'lru-cache';

/**
 * A cache of at most `capacity` entries that forgets the least recently used first: isaacs'
 * lru-cache, whose hit moves one link of a list (a Map's delete and set on every hit cost a
 * warm search more).
 */
export class LruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(capacity: number) {
    super({ max: capacity });
  }
}
