"""Draws the business cards of deck.json with ImageMagick, each twice:

- `<id>.clean.png`: the card as printed, 1050 x 600 (3.5 x 2 inches at
  300 dpi), as a scanner or a careful photo gives it;
- `<id>.photo.jpg`: the card photographed on a desk, the way a phone on the
  go gives it: turned, seen at a slant, unevenly lit, out of focus, grainy
  and compressed; mostly 12 MP (4032 x 3024), some shrunk by a messenger.

Everything is drawn from the card's id (seeded), so the same deck gives the
same pictures. The pictures are cached outside the clone, in a folder named
by the hash of this script and the deck: `cache_dir()`.

    python3 bench/cards/make.py [--only id,id] [OUT]
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, "deck.json")
CONVERT = "/usr/bin/convert"  # Debian's ImageMagick: another `convert` may come first on PATH
# One thread per drawing, two drawings at once: ImageMagick's OpenMP threads
# spin while they wait, which on a busy machine costs more than it gains.
ONE_THREAD = {**os.environ, "MAGICK_THREAD_LIMIT": "1", "OMP_THREAD_LIMIT": "1"}

WIDTH, HEIGHT, MARGIN = 1050, 600, 56
# Point sizes at 1050 x 600: the small print is 7-8 pt on a printed card.
SIZES = {"logo": 54, "name": 48, "title": 30, "company": 32, "tagline": 24, "linkedin": 25, "handle": 25,
         "address": 25}
CONTACT_SIZE = 27
CONTACT_ROLES = {"tel", "mobile", "direct", "fax", "email", "web", "address", "handle"}
BOLD_ROLES = {"logo", "name"}
# (text, accent, paper): the accent colours the logo and the name.
INKS = {
    "navy": ("#1d2b4f", "#1d2b4f", "#fbfaf7"), "black": ("#151515", "#151515", "#ffffff"),
    "teal": ("#263238", "#0f5a60", "#f7f9f9"), "maroon": ("#2b2222", "#6b1d2a", "#fdfbf6"),
    "green": ("#1f2b22", "#1e5430", "#f6f7f2"), "grey": ("#3a3a3a", "#555555", "#f2f2f0"),
    "red": ("#222222", "#a3161c", "#ffffff"), "brown": ("#3b2a1e", "#6e3b1c", "#f8f1e5"),
    "gold": ("#262626", "#8a6d1f", "#fffdf7"), "white": ("#eeeeee", "#ffffff", "#1f2a36"),
}
DARK_ACCENT = "#e0c070"


def deck():
    with open(DECK, encoding="utf-8") as f:
        return json.load(f)["cards"]


def held_out():
    """The cards nobody tunes the field reader on (held-out.txt)."""
    with open(os.path.join(HERE, "held-out.txt")) as f:
        return [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]


def digest():
    """The hash of what makes the pictures: this script and the deck."""
    h = hashlib.sha256()
    for path in (__file__, DECK):
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def cache_dir():
    """Where the pictures of this deck are kept: $DEBRIEF_BENCH_CACHE (the
    target folder's bench-cache by default)/cards-<hash>."""
    root = os.environ.get("DEBRIEF_BENCH_CACHE") or os.path.join(
        os.environ.get("CARGO_TARGET_DIR") or os.path.join(os.path.dirname(os.path.dirname(HERE)), "target"),
        "bench-cache")
    return os.path.join(root, f"cards-{digest()}")


def font_file(spec):
    """The font file fontconfig picks for "Family" or "Family:style"."""
    out = subprocess.run(["fc-match", "-f", "%{file}", spec], check=True, capture_output=True, text=True).stdout
    return out.strip()


def escaped(text):
    # ImageMagick reads a file for text that starts with '@' and expands '%'.
    return ("\\" + text if text.startswith("@") else text).replace("%", "%%")


def widths(items):
    """The drawn width of each (font file, point size, text), in one run."""
    args = []
    for font, size, text in items:
        args += ["(", "-font", font, "-pointsize", f"{size:.1f}", f"label:{escaped(text)}", ")"]
    out = subprocess.run([CONVERT, *args, "-format", "%w\n", "info:"], check=True, capture_output=True, text=True,
                         env=ONE_THREAD)
    return [int(w) for w in out.stdout.split()]


def layout(card, scale):
    """The ImageMagick arguments that draw `card` at `scale` times 1050 x 600."""
    text_ink, accent, paper = INKS[card["ink"]]
    dark = card["layout"] == "dark"
    if dark:
        accent = DARK_ACCENT if card["ink"] == "gold" else accent
    family = card["font"]
    base = family.split(":")[0]
    regular = font_file(family)
    bold = font_file(family if ":" in family and "bold" in family else base + ":bold")
    lines = card["lines"]
    first_contact = next((i for i, (role, _) in enumerate(lines) if role in CONTACT_ROLES), len(lines))
    band = card["layout"] == "band" and lines[0][0] in ("logo", "company")

    inner = WIDTH - 2 * MARGIN
    column = inner * (0.48 if card["layout"] == "split" else 1.0)
    sizes = [SIZES.get(role, CONTACT_SIZE) for role, _ in lines]
    fonts = [bold if role in BOLD_ROLES else regular for role, _ in lines]
    # Lines too wide for their column are set smaller.
    drawn = widths([(f, s, t) for f, s, (_, t) in zip(fonts, sizes, lines)])
    sizes = [s * min(1.0, column / w) if w else s for s, w in zip(sizes, drawn)]
    # And a card too full is set smaller all over.
    band_height = 150 if band else 0
    gap = 26
    need = sum(s * 1.32 for s in sizes) + gap + band_height
    shrink = min(1.0, (HEIGHT - 2 * MARGIN) / need)
    sizes = [s * shrink for s in sizes]

    W, H, m = WIDTH * scale, HEIGHT * scale, MARGIN * scale
    args = ["-size", f"{W}x{H}", f"xc:{paper}"]
    if band:
        args += ["-fill", accent, "-draw", f"rectangle 0,0 {W},{band_height * scale}"]
    placed = []  # (role, text, size, font, x gravity, y)
    y = m
    for i, ((role, text), size, font) in enumerate(zip(lines, sizes, fonts)):
        if band and i == 0:
            placed.append((role, text, size, font, "West", (band_height * scale - size * scale) / 2 - 4 * scale))
            y = band_height * scale + 30 * scale
            continue
        if i == first_contact:
            break
        placed.append((role, text, size, font, None, y))
        y += size * 1.32 * scale
    contacts = list(zip(lines, sizes, fonts))[first_contact:]
    y = H - m - sum(s * 1.32 * scale for _, s, _ in contacts) + 0.32 * CONTACT_SIZE * scale
    for (role, text), size, font in contacts:
        placed.append((role, text, size, font, "contact", y))
        y += size * 1.32 * scale

    align = {"left": "NorthWest", "dark": "NorthWest", "band": "NorthWest", "right": "NorthEast",
             "center": "North", "split": "NorthWest"}[card["layout"]]
    for role, text, size, font, where, top in placed:
        gravity = align
        if where == "West":
            gravity = "NorthWest"
        elif where == "contact" and card["layout"] in ("split", "band"):
            gravity = "NorthEast"
        colour = paper if where == "West" else (accent if role in BOLD_ROLES else text_ink)
        kerning = ["-kerning", f"{3 * scale}"] if role == "logo" else ["-kerning", "0"]
        x = 0 if gravity == "North" else m
        args += ["-gravity", gravity, "-font", font, "-pointsize", f"{size * scale:.1f}", "-fill", colour, *kerning,
                 "-annotate", f"+{x:.0f}+{top:.0f}", escaped(text)]
    return args


def draw_clean(card, path):
    subprocess.run([CONVERT, *layout(card, 1), path], check=True, capture_output=True, env=ONE_THREAD)


def photo_plan(card):
    """How the card is photographed: drawn from its id, so always the same."""
    rng = random.Random("photo:" + card["id"])
    messenger = rng.random() < 0.2
    return {
        "size": (1600, 1200) if messenger else (4032, 3024),
        "fill": rng.uniform(0.55, 0.78),  # of the photo's width
        "turn": rng.choice([-1, 1]) * rng.uniform(1.0, 7.0) + (180 if rng.random() < 0.08 else 0),
        "keystone": rng.uniform(0.0, 0.09),
        "keystone_side": rng.random() < 0.3,
        "shift": (rng.uniform(-0.06, 0.06), rng.uniform(-0.05, 0.05)),
        "desk": rng.choice(["wood", "slate", "linen", "oak"]),
        "light": rng.uniform(0.72, 0.95),
        "light_from": rng.choice(["radial", "left", "top"]),
        "blur": rng.uniform(0.8, 2.6) * (0.5 if messenger else 1.0),
        "motion": rng.random() < 0.2,
        "noise": rng.uniform(0.25, 0.7),
        "quality": rng.randint(45, 60) if messenger else rng.randint(60, 85),
        "seed": rng.randint(1, 10_000),
    }


DESKS = {"wood": ("#6b5440", "#3b2c20"), "slate": ("#505860", "#2c3238"), "linen": ("#c9c2b4", "#a69e8e"),
         "oak": ("#a27b52", "#7a5634")}


def draw_photo(card, path, work):
    plan = photo_plan(card)
    pw, ph = plan["size"]
    flat = os.path.join(work, card["id"] + ".2x.png")
    scale = 2
    subprocess.run([CONVERT, *layout(card, scale), flat], check=True, capture_output=True, env=ONE_THREAD)
    cw, ch = WIDTH * scale, HEIGHT * scale
    # Where the card's corners land in the photo: centred (shifted a little),
    # turned, and foreshortened on one side.
    width = plan["fill"] * pw
    height = width * HEIGHT / WIDTH
    k = plan["keystone"]
    corners = [(-width / 2, -height / 2), (width / 2, -height / 2), (width / 2, height / 2), (-width / 2, height / 2)]
    if plan["keystone_side"]:
        corners = [(x, y * (1 - k) if x > 0 else y) for x, y in corners]
    else:
        corners = [(x * (1 - k) if y < 0 else x, y) for x, y in corners]
    a = math.radians(plan["turn"])
    cx, cy = pw / 2 + plan["shift"][0] * pw, ph / 2 + plan["shift"][1] * ph
    landed = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in corners]
    source = [(0, 0), (cw, 0), (cw, ch), (0, ch)]
    points = " ".join(f"{sx},{sy} {dx:.1f},{dy:.1f}" for (sx, sy), (dx, dy) in zip(source, landed))
    light, dark = DESKS[plan["desk"]]
    small = f"{pw // 8}x{ph // 8}"
    # Uneven light: brightest at the middle, or falling off to one side.
    shade = f"white-gray{plan['light'] * 100:.0f}"
    lighting = {
        "radial": ["-size", small, f"radial-gradient:{shade}"],
        "top": ["-size", small, f"gradient:{shade}"],
        "left": ["-size", f"{ph // 8}x{pw // 8}", f"gradient:{shade}", "-rotate", "-90"],
    }[plan["light_from"]]
    # A shaken phone smears along one direction: a one-sided blur.
    blur = ["-morphology", "Convolve", f"Blur:0x{plan['blur'] * 1.5:.1f},{plan['seed'] % 180}"] if plan["motion"] \
        else ["-blur", f"0x{plan['blur']:.2f}"]
    subprocess.run([
        CONVERT, "-seed", str(plan["seed"]),
        # The desk: a coarse pattern, enlarged, with fine grain on it.
        "(", "-size", small, "plasma:fractal", "-colorspace", "gray", "-blur", "0x3", "-auto-level", "-colorspace", "sRGB",
        "+level-colors", f"{dark},{light}", "-resize", f"{pw}x{ph}!",
        "-attenuate", "0.4", "+noise", "Gaussian", ")",
        "(", flat, "-alpha", "set", "-virtual-pixel", "transparent",
        "-define", f"distort:viewport={pw}x{ph}+0+0", "-distort", "Perspective", points, ")",
        "-compose", "over", "-composite",
        "(", *lighting, "-resize", f"{pw}x{ph}!", ")", "-compose", "multiply", "-composite",
        *blur, "-attenuate", f"{plan['noise']:.2f}", "+noise", "Gaussian",
        "-sampling-factor", "2x2", "-quality", str(plan["quality"]), path,
    ], check=True, capture_output=True, env=ONE_THREAD)
    os.remove(flat)


def make(card, out):
    """Draws the card's two pictures into `out` unless they are there."""
    clean, photo = (os.path.join(out, f"{card['id']}.{kind}") for kind in ("clean.png", "photo.jpg"))
    with tempfile.TemporaryDirectory(dir=out) as work:
        if not os.path.exists(clean):
            draw_clean(card, os.path.join(work, "clean.png"))
            os.replace(os.path.join(work, "clean.png"), clean)
        if not os.path.exists(photo):
            draw_photo(card, os.path.join(work, "photo.jpg"), work)
            os.replace(os.path.join(work, "photo.jpg"), photo)
    return card["id"]


def ensure(ids=None, out=None, jobs=2):
    """The folder holding the pictures of the cards `ids` (all by default),
    drawing those it lacks; in the cache, older decks' folders go."""
    if out is None:
        out = cache_dir()
        parent = os.path.dirname(out)
        for name in os.listdir(parent) if os.path.isdir(parent) else []:
            if name.startswith("cards-") and os.path.join(parent, name) != out:
                shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    cards = [c for c in deck() if ids is None or c["id"] in ids]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for _ in pool.map(lambda c: make(c, out), cards):
            pass
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="where to draw them (the cache by default)")
    parser.add_argument("--only", help="comma-separated card ids")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(ensure(args.only.split(",") if args.only else None, args.out, args.jobs))


if __name__ == "__main__":
    main()
