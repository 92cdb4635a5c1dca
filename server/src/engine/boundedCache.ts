/**
 * A cache kept across runs that cannot grow for ever. The engine keeps what is a pure function of its key
 * (compiled patterns, brace expansions, example paths, decisions) from one check to the next, because the language
 * server checks the same file again on every edit; but the keys are the user's text, so a long session or a file
 * of huge patterns must not make them grow without end.
 *
 * When a new entry would take it past its limit, the cache is emptied and starts over with that entry. Emptied
 * rather than evicting the oldest: entries are cheap to make again and one file's working set fits, so the simple
 * rule costs nothing in the common case and bounds memory in the worst.
 *
 * The limit is a number of entries, and optionally a total weight (`weigh`: e.g. the characters of a key and its
 * value, where the text's size is what the user decides).
 */
export interface CacheLimits<K, V> {
  readonly entries: number;
  readonly weight?: number;
  readonly weigh?: (key: K, value: V) => number;
}

export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  private weight = 0;

  constructor(private readonly limits: CacheLimits<K, V>) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  get size(): number {
    return this.map.size;
  }

  /** Keeps `value` under `key` and returns it. Callers set a key after a miss (a key set twice is weighed twice). */
  set(key: K, value: V): V {
    const { entries, weight = Infinity, weigh } = this.limits;
    const w = weigh ? weigh(key, value) : 0;
    if (this.map.size >= entries || this.weight + w > weight) this.clear();
    this.map.set(key, value);
    this.weight += w;
    return value;
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }
}
