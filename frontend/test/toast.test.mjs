import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import {
  initialToastState,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  toastReducer,
} from "../src/lib/toast-state.ts";
import {
  $toasts,
  CARRIED_TOAST_KEY,
  dismissToast,
  resetToastsForTests,
  showCarriedToast,
  toast,
  toastAfterReload,
} from "../src/stores/toast.ts";

const item = (id, extra = {}) => ({ id, open: true, variant: "default", title: `t${id}`, ...extra });

describe("toast reducer", () => {
  test("constants match the spec", () => {
    assert.equal(TOAST_LIMIT, 1);
    assert.equal(TOAST_DURATION_MS, 5000);
    assert.equal(TOAST_REMOVE_DELAY_MS, 1_000_000);
  });

  test("add puts the new toast first and keeps at most one", () => {
    let s = toastReducer(initialToastState, { type: "add", toast: item("1") });
    assert.deepEqual(s.toasts.map((t) => t.id), ["1"]);
    s = toastReducer(s, { type: "add", toast: item("2") });
    assert.deepEqual(s.toasts.map((t) => t.id), ["2"]);
  });

  test("update merges into the matching toast only", () => {
    const s0 = { toasts: [item("1")] };
    const s1 = toastReducer(s0, { type: "update", id: "1", changes: { title: "new", variant: "destructive" } });
    assert.equal(s1.toasts[0].title, "new");
    assert.equal(s1.toasts[0].variant, "destructive");
    assert.equal(s1.toasts[0].open, true);
    const s2 = toastReducer(s1, { type: "update", id: "nope", changes: { title: "x" } });
    assert.deepEqual(s2, s1);
  });

  test("dismiss closes one toast, or all without an id, and keeps them", () => {
    const s0 = { toasts: [item("1"), item("2")] };
    const one = toastReducer(s0, { type: "dismiss", id: "2" });
    assert.deepEqual(one.toasts.map((t) => t.open), [true, false]);
    const all = toastReducer(s0, { type: "dismiss" });
    assert.deepEqual(all.toasts.map((t) => t.open), [false, false]);
    assert.equal(all.toasts.length, 2);
  });

  test("remove drops one toast, or all without an id", () => {
    const s0 = { toasts: [item("1"), item("2")] };
    assert.deepEqual(toastReducer(s0, { type: "remove", id: "1" }).toasts.map((t) => t.id), ["2"]);
    assert.deepEqual(toastReducer(s0, { type: "remove" }).toasts, []);
  });

  test("the reducer never mutates its input", () => {
    const s0 = Object.freeze({ toasts: Object.freeze([Object.freeze(item("1"))]) });
    toastReducer(s0, { type: "add", toast: item("2") });
    toastReducer(s0, { type: "update", id: "1", changes: { title: "x" } });
    toastReducer(s0, { type: "dismiss" });
    toastReducer(s0, { type: "remove" });
  });
});

describe("toast store", () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ["setTimeout"] });
    resetToastsForTests();
  });
  afterEach(() => {
    resetToastsForTests();
    mock.timers.reset();
  });

  test("toast() shows a default toast and returns its handle", () => {
    const handle = toast({ title: "Login successful" });
    assert.equal(typeof handle.id, "string");
    assert.deepEqual($toasts.get().toasts, [
      { id: handle.id, open: true, variant: "default", title: "Login successful" },
    ]);
  });

  test("a newer toast replaces the visible one", () => {
    toast({ title: "first" });
    const second = toast({ title: "second", variant: "destructive" });
    const { toasts } = $toasts.get();
    assert.equal(toasts.length, 1);
    assert.equal(toasts[0].id, second.id);
    assert.equal(toasts[0].variant, "destructive");
  });

  test("update changes the toast in place", () => {
    const h = toast({ title: "Sending..." });
    h.update({ title: "Email Sent", description: "to a@b.c" });
    assert.deepEqual($toasts.get().toasts[0], {
      id: h.id,
      open: true,
      variant: "default",
      title: "Email Sent",
      description: "to a@b.c",
    });
  });

  test("a dismissed toast is hidden at once and removed 1,000,000 ms later", () => {
    const h = toast({ title: "bye" });
    h.dismiss();
    assert.equal($toasts.get().toasts[0].open, false);
    mock.timers.tick(TOAST_REMOVE_DELAY_MS - 1);
    assert.equal($toasts.get().toasts.length, 1);
    mock.timers.tick(1);
    assert.equal($toasts.get().toasts.length, 0);
  });

  test("dismissing twice schedules one removal", () => {
    const h = toast({ title: "x" });
    h.dismiss();
    mock.timers.tick(500_000);
    h.dismiss();
    mock.timers.tick(500_000);
    assert.equal($toasts.get().toasts.length, 0);
  });

  test("dismissToast() without an id hides every toast", () => {
    toast({ title: "a" });
    dismissToast();
    assert.ok($toasts.get().toasts.every((t) => !t.open));
    mock.timers.tick(TOAST_REMOVE_DELAY_MS);
    assert.deepEqual($toasts.get().toasts, []);
  });

  test("each toast gets its own id", () => {
    const ids = new Set([toast({}).id, toast({}).id, toast({}).id]);
    assert.equal(ids.size, 3);
  });
});

describe("a toast carried across a full reload", () => {
  /** sessionStorage as the browser has it, in memory. */
  const memoryStorage = () => {
    const items = new Map();
    return {
      getItem: (k) => (items.has(k) ? items.get(k) : null),
      setItem: (k, v) => items.set(k, String(v)),
      removeItem: (k) => items.delete(k),
      get size() {
        return items.size;
      },
    };
  };
  beforeEach(() => resetToastsForTests());

  test("is shown once by the page after the reload", () => {
    const storage = memoryStorage();
    toastAfterReload({ title: "Login successful" }, storage);
    assert.deepEqual($toasts.get().toasts, [], "nothing is shown before the reload");
    assert.equal(showCarriedToast(storage), true);
    assert.equal($toasts.get().toasts[0].title, "Login successful");
    assert.equal(storage.size, 0, "read once, then gone");
    resetToastsForTests();
    assert.equal(showCarriedToast(storage), false, "a second page shows nothing");
    assert.deepEqual($toasts.get().toasts, []);
  });

  test("ignores what is not a toast", () => {
    const storage = memoryStorage();
    storage.setItem(CARRIED_TOAST_KEY, "{not json");
    assert.equal(showCarriedToast(storage), false);
    storage.setItem(CARRIED_TOAST_KEY, JSON.stringify({ title: 42 }));
    assert.equal(showCarriedToast(storage), false);
    assert.deepEqual($toasts.get().toasts, []);
  });
});
