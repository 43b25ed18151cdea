// Draws the app's SVG icon into pixels at build time, so that the icons of
// every size come from the one logo. Only what a flat logo needs: <rect>
// (with rx) and <path> (M L H V C Q A Z, absolute and relative), solid fills
// by the nonzero rule and strokes, with edges anti-aliased by their distance
// to the pixel's centre. Joins and caps come out round. Anything else fails
// the build rather than drawing a different picture.

const CURVE_STEPS = 16;

function fail(message) {
  throw new Error(`icon SVG: ${message}`);
}

function attributes(text) {
  return Object.fromEntries([...text.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

function colour(value) {
  if (value === undefined || value === "none") return null;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!hex) fail(`colour ${JSON.stringify(value)} (only #rgb, #rrggbb or none)`);
  const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join("") : hex[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16) / 255);
}

/** Path data as a list of [command, ...numbers], arc flags read as single digits. */
function tokens(d) {
  const commands = [];
  let i = 0;
  const skip = () => {
    while (i < d.length && /[\s,]/.test(d[i])) i++;
  };
  const number = () => {
    skip();
    const match = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(d.slice(i));
    if (!match) fail(`a number expected at ${JSON.stringify(d.slice(i, i + 10))}`);
    i += match[0].length;
    return Number(match[0]);
  };
  const flag = () => {
    skip();
    if (d[i] !== "0" && d[i] !== "1") fail(`an arc flag expected at ${JSON.stringify(d.slice(i, i + 10))}`);
    return d[i++] === "1" ? 1 : 0;
  };
  const arity = { M: 2, L: 2, H: 1, V: 1, C: 6, Q: 4, A: 7, Z: 0 };
  let command = null;
  for (skip(); i < d.length; skip()) {
    if (/[a-z]/i.test(d[i])) {
      command = d[i++];
      if (!(command.toUpperCase() in arity)) fail(`path command ${command}`);
      if (command.toUpperCase() === "Z") {
        commands.push([command]);
        continue;
      }
    } else if (command === null || command.toUpperCase() === "Z") fail(`path data ${JSON.stringify(d)}`);
    const upper = command.toUpperCase();
    const args = upper === "A" ? [number(), number(), number(), flag(), flag(), number(), number()] : [];
    if (upper !== "A") for (let n = 0; n < arity[upper]; n++) args.push(number());
    commands.push([command, ...args]);
    // Numbers after a moveto are linetos (SVG 1.1, 9.3.3).
    if (upper === "M") command = command === "M" ? "L" : "l";
  }
  return commands;
}

/** Points along an elliptical arc (SVG 1.1, F.6.5: endpoint to centre form). */
function arcPoints([x1, y1], rx, ry, degrees, large, sweep, [x2, y2]) {
  if (rx === 0 || ry === 0 || (x1 === x2 && y1 === y2)) return [[x2, y2]];
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  const phi = (degrees * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  const grow = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (grow > 1) {
    rx *= Math.sqrt(grow);
    ry *= Math.sqrt(grow);
  }
  const num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  const root = Math.sqrt(Math.max(0, num / den)) * (large === sweep ? -1 : 1);
  const cxp = (root * rx * y1p) / ry;
  const cyp = (-root * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux, uy) => Math.atan2(uy, ux);
  const start = angle((x1p - cxp) / rx, (y1p - cyp) / ry);
  let delta = angle((-x1p - cxp) / rx, (-y1p - cyp) / ry) - start;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  const steps = Math.max(4, Math.ceil(Math.abs(delta) / (Math.PI / 16)));
  const points = [];
  for (let s = 1; s <= steps; s++) {
    const t = start + (delta * s) / steps;
    const ex = rx * Math.cos(t);
    const ey = ry * Math.sin(t);
    points.push(s === steps ? [x2, y2] : [cos * ex - sin * ey + cx, sin * ex + cos * ey + cy]);
  }
  return points;
}

function bezierPoints(controls) {
  const points = [];
  for (let s = 1; s <= CURVE_STEPS; s++) {
    const t = s / CURVE_STEPS;
    let layer = controls;
    while (layer.length > 1) {
      layer = layer.slice(1).map((p, k) => [layer[k][0] + (p[0] - layer[k][0]) * t, layer[k][1] + (p[1] - layer[k][1]) * t]);
    }
    points.push(layer[0]);
  }
  return points;
}

/** Path data → subpaths of points, each `{ points, closed }`. */
export function flattenPath(d) {
  const subpaths = [];
  let current = null;
  let at = [0, 0];
  let start = [0, 0];
  const lineTo = (points) => {
    if (!current) fail("a path must start with a moveto");
    current.points.push(...points);
    at = points[points.length - 1];
  };
  for (const [command, ...n] of tokens(d)) {
    const relative = command === command.toLowerCase();
    const abs = (x, y) => (relative ? [at[0] + x, at[1] + y] : [x, y]);
    switch (command.toUpperCase()) {
      case "M":
        at = abs(n[0], n[1]);
        start = at;
        current = { points: [at], closed: false };
        subpaths.push(current);
        break;
      case "L":
        lineTo([abs(n[0], n[1])]);
        break;
      case "H":
        lineTo([[relative ? at[0] + n[0] : n[0], at[1]]]);
        break;
      case "V":
        lineTo([[at[0], relative ? at[1] + n[0] : n[0]]]);
        break;
      case "C":
        lineTo(bezierPoints([at, abs(n[0], n[1]), abs(n[2], n[3]), abs(n[4], n[5])]));
        break;
      case "Q":
        lineTo(bezierPoints([at, abs(n[0], n[1]), abs(n[2], n[3])]));
        break;
      case "A":
        lineTo(arcPoints(at, n[0], n[1], n[2], n[3], n[4], abs(n[5], n[6])));
        break;
      case "Z":
        if (!current) fail("a closepath before any moveto");
        current.closed = true;
        at = start;
        current = null;
        break;
    }
  }
  return subpaths;
}

function rectPath({ x = "0", y = "0", width, height, rx, ry }) {
  const [x0, y0, w, h] = [x, y, width, height].map(Number);
  const r = Math.min(Number(rx ?? ry ?? 0), w / 2, h / 2);
  if (!(w > 0 && h > 0)) fail("a <rect> needs a width and a height");
  if (r <= 0) return `M${x0} ${y0}h${w}v${h}h${-w}z`;
  return (
    `M${x0 + r} ${y0}H${x0 + w - r}A${r} ${r} 0 0 1 ${x0 + w} ${y0 + r}V${y0 + h - r}` +
    `A${r} ${r} 0 0 1 ${x0 + w - r} ${y0 + h}H${x0 + r}A${r} ${r} 0 0 1 ${x0} ${y0 + h - r}` +
    `V${y0 + r}A${r} ${r} 0 0 1 ${x0 + r} ${y0}z`
  );
}

/** The logo: its view box and its shapes in painting order. */
export function parseSvg(text) {
  const root = /<svg\b([^>]*)>/.exec(text);
  if (!root) fail("no <svg> element");
  const viewBox = (attributes(root[1]).viewBox ?? "").trim().split(/[\s,]+/).map(Number);
  if (viewBox.length !== 4 || viewBox.some((v) => !Number.isFinite(v))) fail("the <svg> needs a viewBox");
  const shapes = [];
  for (const [, tag, rest] of text.slice(root.index + root[0].length).matchAll(/<([\w:-]+)\b([^>]*)>/g)) {
    const a = attributes(rest);
    if ("transform" in a || "style" in a || "class" in a) fail(`<${tag}> with transform, style or class`);
    let d;
    if (tag === "rect") d = rectPath(a);
    else if (tag === "path") d = a.d ?? fail("a <path> without d");
    else fail(`element <${tag}>`);
    shapes.push({
      tag,
      attributes: a,
      subpaths: flattenPath(d),
      fill: colour(a.fill ?? "#000"),
      stroke: colour(a.stroke),
      strokeWidth: Number(a["stroke-width"] ?? 1),
    });
  }
  return { viewBox, shapes };
}

/** Edges as a flat array, four numbers (ax, ay, bx, by) an edge, for the pixel loop. */
function edgesOf(subpaths, closeAll) {
  const edges = [];
  for (const { points, closed } of subpaths) {
    for (let k = 1; k < points.length; k++) edges.push(...points[k - 1], ...points[k]);
    if ((closed || closeAll) && points.length > 2) edges.push(...points[points.length - 1], ...points[0]);
  }
  return Float64Array.from(edges);
}

function nearestDistance(px, py, e) {
  let best = Infinity;
  for (let k = 0; k < e.length; k += 4) {
    const ax = e[k];
    const ay = e[k + 1];
    const dx = e[k + 2] - ax;
    const dy = e[k + 3] - ay;
    const length2 = dx * dx + dy * dy;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
    const ex = ax + t * dx - px;
    const ey = ay + t * dy - py;
    best = Math.min(best, ex * ex + ey * ey);
  }
  return Math.sqrt(best);
}

/** Nonzero winding of the closed outline around the point. */
function winding(px, py, e) {
  let w = 0;
  for (let k = 0; k < e.length; k += 4) {
    const ax = e[k];
    const ay = e[k + 1];
    const bx = e[k + 2];
    const by = e[k + 3];
    const side = (bx - ax) * (py - ay) - (px - ax) * (by - ay);
    if (ay <= py && by > py && side > 0) w++;
    else if (ay > py && by <= py && side < 0) w--;
  }
  return w;
}

function bounds(e, margin) {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < e.length; k += 2) {
    box[0] = Math.min(box[0], e[k]);
    box[1] = Math.min(box[1], e[k + 1]);
    box[2] = Math.max(box[2], e[k]);
    box[3] = Math.max(box[3], e[k + 1]);
  }
  return [box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin];
}

/**
 * RGBA pixels of the logo at `size` × `size`.
 *
 * `fullBleed`: for icons the platform cuts to its own shape (maskable icons, the
 * iOS home screen), which must be opaque to the edges: the first shape, a rect
 * over the whole view box, is the backdrop and loses its rounded corners.
 * `inset`: the rest is drawn at this scale about the centre, e.g. to keep it
 * inside the safe zone of a maskable icon.
 */
export function rasterise({ viewBox, shapes }, size, { fullBleed = false, inset = 1 } = {}) {
  const [vx, vy, vw, vh] = viewBox;
  if (vw !== vh) fail("the view box must be square");
  const unit = vw / size; // view-box units per pixel
  const centre = [vx + vw / 2, vy + vh / 2];
  const layers = [];
  shapes.forEach((shape, index) => {
    const backdrop = fullBleed && index === 0;
    if (backdrop) {
      const a = shape.attributes;
      const covers = shape.tag === "rect" && Number(a.x ?? 0) <= vx && Number(a.y ?? 0) <= vy && Number(a.width) >= vw && Number(a.height) >= vh;
      if (!covers || !shape.fill) fail("a full-bleed icon needs a filled <rect> over the whole view box first");
      layers.push({ backdrop: true, colour: shape.fill });
      return;
    }
    const scale = fullBleed ? inset : 1;
    const place = ([x, y]) => [centre[0] + (x - centre[0]) * scale, centre[1] + (y - centre[1]) * scale];
    const subpaths = shape.subpaths.map(({ points, closed }) => ({ points: points.map(place), closed }));
    if (shape.fill) {
      const edges = edgesOf(subpaths, true);
      if (edges.length) layers.push({ colour: shape.fill, edges, box: bounds(edges, unit), fill: true });
    }
    if (shape.stroke && shape.strokeWidth > 0) {
      const edges = edgesOf(subpaths, false);
      const half = (shape.strokeWidth * scale) / 2;
      if (edges.length) layers.push({ colour: shape.stroke, edges, box: bounds(edges, half + unit), half });
    }
  });

  // A tile of pixels far from every edge of a layer is wholly in or out of it:
  // measured once at the tile's centre instead of at each pixel.
  const TILE = 8;
  const tiles = Math.ceil(size / TILE);
  const reach = (TILE / 2) * Math.SQRT2 * unit + unit;
  const coverage = (layer, px, py) => {
    const d = nearestDistance(px, py, layer.edges);
    const signed = layer.fill ? (winding(px, py, layer.edges) !== 0 ? -d : d) : d - layer.half;
    return Math.max(0, Math.min(1, 0.5 - signed / unit));
  };
  const settled = layers.map((layer) => {
    const known = new Float64Array(tiles * tiles).fill(-1);
    if (layer.backdrop) return known.fill(1);
    for (let ty = 0; ty < tiles; ty++) {
      for (let tx = 0; tx < tiles; tx++) {
        const cx = vx + (tx + 0.5) * TILE * unit;
        const cy = vy + (ty + 0.5) * TILE * unit;
        const d = nearestDistance(cx, cy, layer.edges);
        const clear = layer.fill ? d > reach : Math.abs(d - layer.half) > reach;
        if (clear) known[ty * tiles + tx] = coverage(layer, cx, cy);
      }
    }
    return known;
  });

  const rgba = new Uint8Array(size * size * 4);
  for (let row = 0; row < size; row++) {
    const py = vy + (row + 0.5) * unit;
    const tileRow = Math.floor(row / TILE) * tiles;
    for (let col = 0; col < size; col++) {
      const px = vx + (col + 0.5) * unit;
      const tile = tileRow + Math.floor(col / TILE);
      // Premultiplied colour and alpha, painted layer over layer.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let l = 0; l < layers.length; l++) {
        const layer = layers[l];
        let cover = settled[l][tile];
        if (cover < 0) {
          const box = layer.box;
          cover = px < box[0] || px > box[2] || py < box[1] || py > box[3] ? 0 : coverage(layer, px, py);
        }
        if (cover === 0) continue;
        const c = layer.colour;
        r = c[0] * cover + r * (1 - cover);
        g = c[1] * cover + g * (1 - cover);
        b = c[2] * cover + b * (1 - cover);
        a = cover + a * (1 - cover);
      }
      const at = (row * size + col) * 4;
      if (a > 0) {
        rgba[at] = Math.round((r / a) * 255);
        rgba[at + 1] = Math.round((g / a) * 255);
        rgba[at + 2] = Math.round((b / a) * 255);
        rgba[at + 3] = Math.round(a * 255);
      }
    }
  }
  return rgba;
}
