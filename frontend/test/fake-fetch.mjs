// A scripted stand-in for fetch: each call takes the next queued answer and is recorded.

export function fakeFetch() {
  const calls = [];
  const queue = [];
  const fn = async (url, init = {}) => {
    calls.push({ url: String(url), init });
    const next = queue.shift();
    if (!next) throw new Error(`unexpected fetch ${init.method ?? "GET"} ${url}`);
    if (next instanceof Error) throw next;
    return typeof next === "function" ? next(url, init) : next;
  };
  fn.calls = calls;
  fn.reply = (status, body, { contentType, statusText = "" } = {}) => {
    const headers = new Headers();
    let text = "";
    if (body !== undefined && body !== null) {
      if (typeof body === "string") {
        text = body;
        headers.set("Content-Type", contentType ?? "text/plain; charset=utf-8");
      } else {
        text = JSON.stringify(body);
        headers.set("Content-Type", contentType ?? "application/json");
      }
    }
    queue.push(new Response(status === 204 ? null : text, { status, statusText, headers }));
    return fn;
  };
  fn.fail = (error) => {
    queue.push(error);
    return fn;
  };
  fn.defer = () => {
    let resolve;
    const promise = new Promise((r) => (resolve = r));
    queue.push(() => promise);
    return (status, body) => resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
  };
  return fn;
}
