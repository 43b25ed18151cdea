// What the screen review checks, measured in the page itself. On every rendering:
// nothing wider than the screen, no two controls or two lines of text on top of each
// other, touch targets of at least 44×44 CSS px, button labels on one line, the bottom
// bar never over the end of the content, and no serious or critical axe-core
// violation. Then the keyboard's path through a page and reduced motion. Plus the
// contact sheet.

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const TOUCH_MIN = 44;
const SERIOUS = new Set(["serious", "critical"]);

/** Waits until the page is at rest: fonts, images, finite animations, two frames. */
export async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      [...document.images].filter((img) => !img.complete && img.loading !== "lazy").map((img) => img.decode().catch(() => {})),
    );
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    );
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/**
 * Runs in the page. Every check looks at what can be seen: an element's box cut by
 * the ancestors that clip it, skipping what is hidden, transparent or behind a modal
 * dialog. Elements are compared only within one layer (the page, or one fixed,
 * sticky or top-layer box): the page scrolling under a fixed bar is how a bar works,
 * and whether the bottom bar hides the end of the page is its own check.
 */
function inPageLayout({ touchMin }) {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const modal = document.querySelector("dialog:modal");
  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  const describe = (el) => {
    const cls = typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/)[0]}` : "";
    const text = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("placeholder") || el.getAttribute("name") || "")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 40);
    return `${el.tagName.toLowerCase()}${cls}${text ? ` "${text}"` : ""}`;
  };
  const layers = new Map();
  const layerOf = (el) => {
    if (layers.has(el)) return layers.get(el);
    let layer = document;
    const s = style(el);
    if (s.position === "fixed" || s.position === "sticky" || (el.tagName === "DIALOG" && el.open)) layer = el;
    else if (el.parentElement) layer = layerOf(el.parentElement);
    layers.set(el, layer);
    return layer;
  };
  // The part of `box` (by default the element's own) that can be seen, or null. An
  // element's box is cut by its ancestors; a line of its text by the element too
  // (ellipsis, line clamp, the screen-reader-only pattern).
  const seen = (el, box) => {
    const own = !box;
    box ??= el.getBoundingClientRect();
    let r = { l: box.left, t: box.top, r: box.right, b: box.bottom };
    const stop = layerOf(el);
    for (let p = own ? el.parentElement : el; p && p !== document.documentElement; p = p.parentElement) {
      const s = style(p);
      if (s.overflowX !== "visible" || s.overflowY !== "visible" || s.clip !== "auto" || /paint|strict|content/.test(s.contain)) {
        const c = p.getBoundingClientRect();
        r = { l: Math.max(r.l, c.left), t: Math.max(r.t, c.top), r: Math.min(r.r, c.right), b: Math.min(r.b, c.bottom) };
      }
      if (p === stop) break;
    }
    return r.r - r.l > 1 && r.b - r.t > 1 ? r : null;
  };
  // Rows that content-visibility keeps off screen unrendered are left out: they are
  // checked when they come into view, and their boxes are estimates until then.
  const shown = (el) =>
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true }) &&
    !(modal && !modal.contains(el)) &&
    !el.closest("[inert]");

  // 1. Nothing wider than the screen.
  const sideways = document.documentElement.scrollWidth - vw;
  if (sideways > 0) problems.push(`overflow: the page scrolls sideways by ${sideways} px`);
  const wide = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (wide.some((w) => w.contains(el)) || !shown(el)) continue;
    const r = seen(el);
    if (r && (r.r > vw + 0.5 || r.l < -0.5)) {
      wide.push(el);
      problems.push(`overflow: ${describe(el)} spans ${Math.round(r.l)}…${Math.round(r.r)} px of a ${vw} px screen`);
    }
  }

  // 2. Controls: big enough, and never on top of each other.
  const controls = [
    ...document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="slider"], [role="checkbox"]',
    ),
  ]
    .filter(shown)
    .map((el) => ({ el, box: el.getBoundingClientRect(), r: seen(el) }))
    .filter((c) => c.r);
  // A link inside running text may be as small as the text around it (WCAG 2.5.8,
  // "inline"); the sentence sets its size, not the link.
  const inline = (el) =>
    el.tagName === "A" &&
    style(el).display === "inline" &&
    (el.parentElement?.textContent ?? "").trim().length > (el.textContent ?? "").trim().length;
  for (const { el, box } of controls) {
    if (inline(el)) continue;
    if (box.width < touchMin - 0.5 || box.height < touchMin - 0.5) {
      problems.push(`touch target: ${describe(el)} is ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
  }
  // A button's words on one line: a label broken in two reads as a layout accident.
  const range = document.createRange();
  for (const { el } of controls) {
    if (!el.matches('button, [role="button"], [role="tab"], .btn')) continue;
    const lines = [];
    const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = text.nextNode(); node; node = text.nextNode()) {
      if (!node.data.trim() || !node.parentElement.checkVisibility()) continue;
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width > 0 && !lines.some((line) => rect.top < line.bottom - 1 && line.top < rect.bottom - 1)) lines.push(rect);
      }
    }
    if (lines.length > 1) problems.push(`crowded: the label of ${describe(el)} breaks over ${lines.length} lines`);
  }
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i];
      const b = controls[j];
      if (a.r.b <= b.r.t || b.r.b <= a.r.t || a.r.r <= b.r.l || b.r.r <= a.r.l) continue;
      const w = Math.min(a.r.r, b.r.r) - Math.max(a.r.l, b.r.l);
      const h = Math.min(a.r.b, b.r.b) - Math.max(a.r.t, b.r.t);
      if (w < 1.5 || h < 1.5 || a.el.contains(b.el) || b.el.contains(a.el) || layerOf(a.el) !== layerOf(b.el)) continue;
      problems.push(`overlap: ${describe(a.el)} and ${describe(b.el)} share ${Math.round(w)}×${Math.round(h)} px`);
    }
  }

  // 3. Lines of text never on top of each other (each line's glyph box, as laid out).
  const lines = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !shown(parent)) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) {
      const r = seen(parent, rect);
      if (r) lines.push({ ...r, el: parent, layer: layerOf(parent) });
    }
  }
  lines.sort((x, y) => x.t - y.t);
  const SLACK = 2; // glyph boxes of tight headings may touch by a pixel or two
  const clashes = new Set();
  for (let i = 0; i < lines.length; i++) {
    const a = lines[i];
    for (let j = i + 1; j < lines.length && lines[j].t < a.b - SLACK; j++) {
      const b = lines[j];
      if (a.el === b.el || a.layer !== b.layer || a.r - SLACK <= b.l || b.r - SLACK <= a.l) continue;
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const key = `${describe(a.el)} / ${describe(b.el)}`;
      if (!clashes.has(key)) {
        clashes.add(key);
        problems.push(`overlap: the text of ${describe(a.el)} runs into ${describe(b.el)}`);
      }
    }
  }
  return problems;
}

/** Runs in the page: scrolled to the end, the bottom bar hides none of the content. */
function inPageBottomBar() {
  const nav = [...document.querySelectorAll("nav")].find((n) => getComputedStyle(n).position === "fixed");
  const main = document.querySelector("main");
  if (!nav || !main || document.querySelector("dialog:modal")) return [];
  const before = window.scrollY;
  window.scrollTo(0, document.documentElement.scrollHeight);
  const top = nav.getBoundingClientRect().top;
  const covered = [];
  for (const el of main.querySelectorAll("*")) {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue;
    let fixed = false;
    for (let p = el; p && p !== main && !fixed; p = p.parentElement) fixed = ["fixed", "sticky"].includes(getComputedStyle(p).position);
    const r = el.getBoundingClientRect();
    if (fixed || r.width <= 1 || r.height <= 1 || r.bottom <= top + 0.5 || el.children.length > 0) continue;
    covered.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 30)}" ends at ${Math.round(r.bottom)} px`);
  }
  window.scrollTo(0, before);
  return covered.length ? [`bottom bar (top at ${Math.round(top)} px) covers the end of the page: ${covered.slice(0, 3).join("; ")}`] : [];
}

/** Layout problems of the page as it is now. */
export async function layoutProblems(page) {
  return [...(await page.evaluate(inPageLayout, { touchMin: TOUCH_MIN })), ...(await page.evaluate(inPageBottomBar))];
}

let axeSource;

// The rules whose outcome depends on colours alone.
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * axe-core's serious and critical violations, one line each. With `coloursOnly`, only
 * the rules about colours: for a second scheme of a page already checked, since the
 * schemes differ in their colour tokens and in nothing else (styles/tokens.css).
 */
export async function axeProblems(page, { coloursOnly = false } = {}) {
  axeSource ??= await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (onlyRules) => {
    // Like the layout checks, axe leaves out the rows that content-visibility keeps
    // unrendered off screen: those in view are the same component, and axe would take
    // a minute over a thousand of them. They are out of the layout while it runs.
    const offScreen = [...document.querySelectorAll("*")].filter(
      (el) =>
        getComputedStyle(el).contentVisibility === "auto" &&
        el.firstElementChild &&
        !el.firstElementChild.checkVisibility({ contentVisibilityAuto: true }),
    );
    for (const el of offScreen) el.style.setProperty("display", "none");
    try {
      // target-size is the 24 px minimum of WCAG 2.2 AA; the layout checks ask for 44.
      const options = onlyRules
        ? { resultTypes: ["violations"], runOnly: { type: "rule", values: onlyRules } }
        : { resultTypes: ["violations"], rules: { "target-size": { enabled: false } } };
      const result = await window.axe.run(document, options);
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
    } finally {
      for (const el of offScreen) el.style.removeProperty("display");
    }
  }, coloursOnly ? COLOUR_RULES : null);
  return violations
    .filter((v) => SERIOUS.has(v.impact))
    .map((v) => `axe ${v.id} (${v.impact}): ${v.help}: ${v.targets.slice(0, 4).join(", ")}${v.targets.length > 4 ? ", …" : ""}`);
}

/**
 * Presses Tab through the page and returns what went wrong: a control never reached,
 * reached out of order, without a visible change when focused, or hidden under the
 * bottom bar. The controls are those in the Tab order (tabindex ≥ 0) that can be seen;
 * tabs with a roving tabindex are one stop, as arrows move between them.
 */
export async function focusProblems(page) {
  const count = await page.evaluate(() => {
    const all = [
      ...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]"),
    ].filter((el) => el.tabIndex >= 0 && !el.disabled && el.checkVisibility({ visibilityProperty: true }) && !el.closest("[inert]"));
    // Kept in the page's memory, not in the DOM; `look` is a control's appearance.
    const look = (el) => {
      const s = getComputedStyle(el);
      return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor, s.textDecorationLine].join("|");
    };
    window.reviewTab = { all, look, focused: new Map(), order: [], hidden: new Set() };
    document.activeElement?.blur?.();
    return all.length;
  });
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press("Tab");
    await page.evaluate(() => {
      const { all, look, focused, order, hidden } = window.reviewTab;
      const el = document.activeElement;
      const index = all.indexOf(el);
      if (index < 0) return;
      order.push(index);
      if (!focused.has(el)) focused.set(el, look(el));
      const nav = [...document.querySelectorAll("nav")].find((n) => getComputedStyle(n).position === "fixed");
      const r = el.getBoundingClientRect();
      if (nav && !nav.contains(el) && r.bottom > nav.getBoundingClientRect().top + 0.5) hidden.add(index);
      if (r.top < 0 || r.bottom > innerHeight) hidden.add(index);
    });
  }
  return page.evaluate(() => {
    const { all, look, focused, order, hidden } = window.reviewTab;
    document.activeElement?.blur?.();
    const name = (el) => `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") || el.textContent || el.name || "").trim().slice(0, 30)}"`;
    const problems = [];
    all.forEach((el, i) => {
      if (!focused.has(el)) problems.push(`${name(el)} is never reached`);
      else if (focused.get(el) === look(el)) problems.push(`${name(el)} looks the same focused and not`);
      if (hidden.has(i)) problems.push(`${name(el)} is focused out of sight (off screen or under the bottom bar)`);
    });
    // In document order, allowing one wrap from the end back to the start.
    const drops = order.filter((index, i) => i > 0 && index < order[i - 1]).length;
    if (drops > 1) problems.push(`the focus order is not the order on screen: ${order.join(", ")}`);
    return problems;
  });
}

/** Runs in the page: under reduced motion, no transition takes time and no animation moves. */
function inPageMotion() {
  const FADES = new Set(["opacity", "color", "backgroundColor", "borderColor", "outlineColor", "fill", "stroke", "visibility"]);
  const seconds = (list) => Math.max(...list.split(",").map((t) => parseFloat(t) * (t.trim().endsWith("ms") ? 0.001 : 1)));
  const problems = [];
  for (const el of [document.documentElement, ...document.querySelectorAll("*")]) {
    const s = getComputedStyle(el);
    if (seconds(s.transitionDuration) > 0.001) problems.push(`${el.tagName.toLowerCase()}.${el.classList[0] ?? ""} has a ${s.transitionDuration} transition`);
  }
  if (getComputedStyle(document.documentElement).scrollBehavior !== "auto") problems.push("scrolling is smooth");
  for (const animation of document.getAnimations()) {
    const timing = animation.effect?.getComputedTiming();
    if (!timing || timing.duration <= 1) continue;
    const moves = animation.effect
      .getKeyframes()
      .flatMap((frame) => Object.keys(frame))
      .filter((key) => !["offset", "computedOffset", "easing", "composite"].includes(key) && !FADES.has(key));
    if (moves.length) {
      const target = animation.effect.target;
      problems.push(`${target?.tagName.toLowerCase()}.${target?.classList[0] ?? ""} animates ${[...new Set(moves)].join(", ")} over ${timing.duration} ms`);
    }
  }
  return problems;
}

/** What moves on the page although the system asks for reduced motion. */
export const motionProblems = (page) => page.evaluate(inPageMotion);

/**
 * One picture of many screenshots, made by the browser itself: a grid of labelled
 * tiles, each the top of a screenshot at half size, saved as a JPEG.
 */
export async function contactSheet(browser, tiles, { path, width, height, columns }) {
  const context = await browser.newContext({ viewport: { width: columns * (width + 12) + 12, height: 600 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const figures = await Promise.all(
      tiles.map(async ({ label, file }) => {
        const src = `data:image/png;base64,${(await readFile(file)).toString("base64")}`;
        return `<figure><img src="${src}" alt=""><figcaption>${label.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}</figcaption></figure>`;
      }),
    );
    await page.setContent(
      `<!doctype html><style>
        body { margin: 0; padding: 12px; background: #d9dde3; font: 12px/1.3 system-ui, sans-serif; }
        main { display: grid; grid-template-columns: repeat(${columns}, ${width}px); gap: 12px; }
        figure { margin: 0; }
        img { display: block; width: ${width}px; height: ${height}px; object-fit: cover; object-position: top; border: 1px solid #9aa3b0; background: #fff; }
        figcaption { padding-top: 4px; color: #151922; }
      </style><main>${figures.join("")}</main>`,
    );
    await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode())));
    await page.screenshot({ path, type: "jpeg", quality: 72, fullPage: true });
  } finally {
    await context.close();
  }
}
