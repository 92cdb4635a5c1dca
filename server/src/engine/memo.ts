/**
 * A value worked out once per object and kept on that object: the `WeakMap<key, value>` pattern without the
 * WeakMap, for keys made by every check (a `ConfigModel`, a parsed `JsonNode`).
 *
 * Why not a WeakMap: V8's scavenger keeps a WeakMap's entries alive while their key is in the young generation,
 * even when nothing else reaches the key, so every check's memos (rule lists, indexes, policies) survived the
 * young collections, were promoted to the old generation and were freed only by mark-compact collections. On the
 * 10-rule benchmark config that was a quarter of a check's time: 0.032 ms of collector time per 0.166 ms check,
 * against 0.004 ms for vscode-json-languageservice (`node --import tsx bench/garbage.ts 10`). Kept on the object,
 * a memo dies young with it: 0.003 ms.
 *
 * The slot is a symbol-keyed, non-enumerable property: invisible to `Object.keys`, `JSON.stringify`, and object
 * spread (`{ ...model }` must not carry a memo of one model to another).
 */
export class Memo<K extends object, V> {
  private slot: symbol;
  /** Values set since the memo was made or last emptied (caches.ts counts its caches' entries with it). */
  setsSinceClear = 0;

  constructor(private readonly name: string) {
    this.slot = Symbol(name);
  }

  /** Forgets every value at once: a new slot, so values kept on their keys under the old one are never read again. */
  clear(): void {
    this.slot = Symbol(this.name);
    this.setsSinceClear = 0;
  }

  get(key: K): V | undefined {
    return (key as Record<symbol, V | undefined>)[this.slot];
  }

  set(key: K, value: V): void {
    this.setsSinceClear++;
    if (Object.prototype.hasOwnProperty.call(key, this.slot)) (key as Record<symbol, V>)[this.slot] = value;
    else Object.defineProperty(key, this.slot, { value, writable: true, enumerable: false, configurable: true });
  }
}
