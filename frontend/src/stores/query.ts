import { atom, onStart, type ReadableAtom, type WritableAtom } from "nanostores";
import { api } from "../lib/api.ts";

// Cached reads. A read is fetched when a screen first needs it and then kept:
// it never goes stale, is not refetched on focus, not polled and not retried.
// A screen that changed the data calls invalidate(); logging out clears them all.

export interface QueryState<T> {
  loading: boolean;
  data: T | undefined;
  error: Error | undefined;
}

export interface QueryOptions {
  /** Resolve with null instead of failing when the server answers 401. */
  allow401?: boolean;
}

interface Entry {
  store: WritableAtom<QueryState<unknown>>;
  options: QueryOptions;
  generation: number;
}

const entries = new Map<string, Entry>();

const idle = <T>(): QueryState<T> => ({ loading: false, data: undefined, error: undefined });

function load(path: string, entry: Entry): void {
  const generation = ++entry.generation;
  const previous = entry.store.get();
  entry.store.set({ loading: true, data: previous.data, error: undefined });
  api.get<unknown>(path, { allow401: entry.options.allow401 }).then(
    (data) => {
      if (entries.get(path) === entry && entry.generation === generation)
        entry.store.set({ loading: false, data, error: undefined });
    },
    (error: unknown) => {
      if (entries.get(path) === entry && entry.generation === generation)
        entry.store.set({
          loading: false,
          data: undefined,
          error: error instanceof Error ? error : new Error(String(error)),
        });
    },
  );
}

/** The shared store for a GET of `path`; fetched once, on first subscription. */
export function query<T>(path: string, options: QueryOptions = {}): ReadableAtom<QueryState<T>> {
  let entry = entries.get(path);
  if (!entry) {
    const store = atom<QueryState<unknown>>(idle());
    const created: Entry = { store, options, generation: 0 };
    entry = created;
    entries.set(path, created);
    // On every first subscriber, not only on mount: a store stays mounted for a second
    // after its last subscriber left, and a read dropped meanwhile must still load when
    // its screen comes straight back.
    onStart(store, () => {
      const s = store.value;
      if (entries.get(path) !== created || !s) return;
      if (!s.loading && s.data === undefined && s.error === undefined) load(path, created);
    });
  }
  return entry.store as ReadableAtom<QueryState<T>>;
}

/** Replace cached data after a successful write, without a refetch. */
export function setQueryData<T>(path: string, update: (old: T | undefined) => T): void {
  query<T>(path);
  const entry = entries.get(path)!;
  entry.generation++; // an answer still on its way is older than this
  // `.value`, not get(): get() on an unwatched store would mount it and start a fetch.
  const old = entry.store.value as QueryState<T> | undefined;
  entry.store.set({ loading: false, data: update(old?.data), error: undefined });
}

/** Drop cached reads whose path starts with `prefix`; watched ones load again now. */
export function invalidate(prefix: string): void {
  for (const [path, entry] of entries) {
    if (!path.startsWith(prefix)) continue;
    if (entry.store.lc > 0) load(path, entry);
    else {
      entry.generation++;
      entry.store.set(idle());
    }
  }
}

/** Forget every cached read (on logout): nothing of one user outlives the session. */
export function clearQueries(): void {
  for (const entry of entries.values()) {
    entry.generation++;
    entry.store.set(idle());
  }
  entries.clear();
}
