// The service worker: it keeps the app's shell (the page, its scripts, styles and
// icons) so that the app opens and records when the server cannot be reached.
// It never keeps anything personal: the API, recordings, photos and the
// certificate downloads always go to the network, and pages are asked of the
// server first, the kept shell standing in only when no answer comes.
//
// A new version takes over at once (skipWaiting, clients.claim): the server it
// talks to is already the new one, so holding the old shell back gains nothing.
// The page then offers a reload at a safe moment. The previous version's files
// are kept until the next update, for pages still running the old code.

declare const self: ServiceWorkerGlobalScope;
declare const SHELL_VERSION: string;
declare const PRECACHE_URLS: string[];

const CACHE_PREFIX = "debrief-shell-";
const CACHE = CACHE_PREFIX + SHELL_VERSION;
const SHELL = "/index.html";
/** Prefixes the worker never answers for. */
const NETWORK_ONLY = ["/api/", "/ca.", "/sw.js"];
/** A page the server has not begun to answer by then is taken from the kept shell. */
const NAVIGATION_TIMEOUT_MS = 4000;

const networkOnly = (path: string) => NETWORK_ONLY.some((prefix) => path.startsWith(prefix));

// Where the browser supports it, requests for the network-only paths skip the
// worker entirely: no start-up cost on API calls and large uploads.
function routeAroundWorker(event: ExtendableEvent): Promise<void> {
  const install = event as ExtendableEvent & { addRoutes?: (rules: unknown[]) => Promise<void> };
  const Pattern = (globalThis as { URLPattern?: new (init: { pathname: string }) => unknown }).URLPattern;
  if (!install.addRoutes || !Pattern) return Promise.resolve();
  try {
    const rules = NETWORK_ONLY.map((prefix) => ({
      condition: { urlPattern: new Pattern({ pathname: `${prefix}*` }) },
      source: "network",
    }));
    return install.addRoutes(rules).catch(() => {});
  } catch {
    return Promise.resolve(); // an older form of the interface: the fetch handler does the same
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await routeAroundWorker(event);
      const cache = await caches.open(CACHE);
      try {
        // Past the HTTP cache: the page itself is only ever revalidated there.
        await cache.addAll(PRECACHE_URLS.map((url) => new Request(url, { cache: "no-cache" })));
      } catch (err) {
        await caches.delete(CACHE);
        throw err;
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // Cache names come back in the order they were made: keep the newest other one.
      const older = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE);
      await Promise.all(older.slice(0, -1).map((name) => caches.delete(name)));
      await self.registration.navigationPreload?.enable().catch(() => {});
      await self.clients.claim();
    })(),
  );
});

// A page the first claim missed asks to be taken over (see lib/service-worker.ts).
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "claim") event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (networkOnly(url.pathname)) {
    // A navigation (a certificate download) may have been started early for us.
    if (request.mode === "navigate") event.respondWith(preloadedOrFetch(event));
    return;
  }
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.startsWith("/assets/") || PRECACHE_URLS.includes(url.pathname)) event.respondWith(kept(request));
});

async function preloadedOrFetch(event: FetchEvent): Promise<Response> {
  // Older Safari has no navigation preload: preloadResponse is missing there.
  const preloaded = (await Promise.resolve(event.preloadResponse).catch(() => undefined)) as Response | undefined;
  return preloaded ?? fetch(event.request);
}

function timeout(ms: number): { done: Promise<null>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return { done, cancel: () => clearTimeout(timer) };
}

/** Network first; the kept shell when the server cannot be reached or is too slow to start answering. */
async function page(event: FetchEvent): Promise<Response> {
  const network = preloadedOrFetch(event);
  network.catch(() => {}); // answered below, or given up on
  const wait = timeout(NAVIGATION_TIMEOUT_MS);
  try {
    const response = await Promise.race([network, wait.done]);
    // A reverse proxy in front answers 502 or 504 when the server itself is down.
    if (response && response.status !== 502 && response.status !== 504) return response;
  } catch {
    // unreachable: the kept shell below
  } finally {
    wait.cancel();
  }
  const shell = await (await caches.open(CACHE)).match(SHELL);
  return shell ?? network;
}

/** Hashed files never change: this version's copy, else an older version's, else the network. */
async function kept(request: Request): Promise<Response> {
  const options = { ignoreVary: true };
  const own = await (await caches.open(CACHE)).match(request, options);
  return own ?? (await caches.match(request, options)) ?? fetch(request);
}

export {};
