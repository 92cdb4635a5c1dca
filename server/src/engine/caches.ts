import { BoundedCache, type CacheLimits } from "./boundedCache";
import { Memo } from "./memo";

/**
 * Every cache the engine (and a host) keeps from one check to the next, in one list: what it is called, what bounds
 * it, how to empty it and how many entries it holds. The language server checks the same file again on every edit,
 * so compiled patterns, automata and decisions are kept between runs; this list is where a reader finds all of
 * them, where a cold measurement or a test empties all of them (`clearCaches`), and where a test checks that none
 * was made outside it (test/engine/caches.test.ts scans the sources).
 *
 * A cache is made registered, in one line, by the function for its kind:
 * - `sharedCache`: a `BoundedCache` keyed by text (patterns, regex sources), emptied when full;
 * - `cachesPerOwner`: one `BoundedCache` per object (a runtime, a fill), the objects held weakly;
 * - `weakCache`: a value per object, held as long as the object lives (a `WeakMap`);
 * - `memo`: a value per object kept on the object (`Memo`, for keys made by every check);
 * - `registeredMap`: a `Map` the module bounds itself (a small least-recently-used list) or whose keys are the
 *   code's own constants, with that bound said in words.
 *
 * Emptying any of them changes no answer, only the time to the next one: each holds a pure function of its key.
 */
export interface RegisteredCache {
  /** `folder/module.name`, e.g. `automata/languages.patternCache`. */
  readonly name: string;
  /** What keeps it from growing without end, in words (entries, characters, or the lives of its keys). */
  readonly bound: string;
  clear(): void;
  /** Entries held now; for the caches keyed weakly by object, the entries made since the last `clear` (an upper bound). */
  size(): number;
}

const registry: RegisteredCache[] = [];

/** Adds `cache` to the list (a name is registered once: a module's caches are made once, at its load). */
export function registerCache(cache: RegisteredCache): void {
  if (registry.some((c) => c.name === cache.name)) throw new Error(`a cache named ${cache.name} is registered already`);
  registry.push(cache);
}

/** Every registered cache, in the order the modules were loaded. */
export function registeredCaches(): readonly RegisteredCache[] {
  return registry;
}

/** Empties every cache kept across runs (for a cold measurement, or a test that must not see an earlier one's work). */
export function clearCaches(): void {
  for (const cache of registry) cache.clear();
}

function describe<K, V>(limits: CacheLimits<K, V>): string {
  const parts = [Number.isFinite(limits.entries) ? `${limits.entries} entries` : "", limits.weight !== undefined ? `a weight of ${limits.weight}` : ""].filter(Boolean);
  return `${parts.join(" and ")}, then emptied`;
}

/** A registered `BoundedCache`. */
export function sharedCache<K, V>(name: string, limits: CacheLimits<K, V>): BoundedCache<K, V> {
  const cache = new BoundedCache(limits);
  registerCache({ name, bound: describe(limits), clear: () => cache.clear(), size: () => cache.size });
  return cache;
}

/** One `BoundedCache` per owner object (a runtime, a fill), made on first use; the owners are held weakly. */
export interface CachesPerOwner<O extends object, K, V> {
  of(owner: O): BoundedCache<K, V>;
}

export function cachesPerOwner<O extends object, K, V>(name: string, limits: CacheLimits<K, V>): CachesPerOwner<O, K, V> {
  let owners = new WeakMap<O, BoundedCache<K, V>>();
  // Weak keys cannot be listed: the live caches are reached through these (weakly too) to count their entries.
  let made: WeakRef<BoundedCache<K, V>>[] = [];
  registerCache({
    name,
    bound: `${describe(limits)}, per owner; owners held weakly`,
    clear: () => {
      for (const ref of made) ref.deref()?.clear();
      owners = new WeakMap();
      made = [];
    },
    size: () => made.reduce((sum, ref) => sum + (ref.deref()?.size ?? 0), 0),
  });
  return {
    of(owner: O): BoundedCache<K, V> {
      let cache = owners.get(owner);
      if (!cache) {
        owners.set(owner, (cache = new BoundedCache(limits)));
        made.push(new WeakRef(cache));
      }
      return cache;
    },
  };
}

/** A value per object, kept while the object lives (a registered `WeakMap`). */
export interface WeakCache<K extends object, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): V;
}

export function weakCache<K extends object, V>(name: string): WeakCache<K, V> {
  let map = new WeakMap<K, V>();
  let made = 0;
  registerCache({
    name,
    bound: "the lives of its keys",
    clear: () => {
      map = new WeakMap();
      made = 0;
    },
    size: () => made,
  });
  return {
    get: (key) => map.get(key),
    set: (key, value) => {
      map.set(key, value);
      made++;
      return value;
    },
  };
}

/** A registered `Memo` (its values are kept on their keys; emptying it makes every key's value unreadable). */
export function memo<K extends object, V>(name: string): Memo<K, V> {
  const m = new Memo<K, V>(name);
  registerCache({ name, bound: "the lives of its keys (kept on them)", clear: () => m.clear(), size: () => m.setsSinceClear });
  return m;
}

/** Registers a `Map` the module bounds itself, or whose keys are the code's constants; `bound` says which. */
export function registeredMap<M extends { clear(): void; readonly size: number }>(name: string, bound: string, map: M): M {
  registerCache({ name, bound, clear: () => map.clear(), size: () => map.size });
  return map;
}
