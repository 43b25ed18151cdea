"""Writes the Vosk form of every meeting from its punctuated (Whisper-style)
form: what Vosk's English models print for the same speech. Lower case, no
punctuation, no speaker labels, one line, and everything said as words:
numbers, amounts, percentages, times, ordinals, years, acronyms, email and
web addresses.

    python3 bench/data/meetings/vosk_form.py          # rewrite vosk/*.txt
    python3 bench/data/meetings/vosk_form.py --check  # fail when one is stale

The readings are fixed conventions (the transcripts are written to them):
- a number with a thousands comma or under 1,000 is a cardinal
  ("1,250" -> "one thousand two hundred fifty"); a four-digit number
  without a comma is read like a year ("2026" -> "twenty twenty six",
  "5450" -> "fifty four fifty");
- "€15,000" -> "fifteen thousand euros", "$1.2 million" -> "one point two
  million dollars", "£3.50" -> "three pounds fifty";
- "15%" -> "fifteen percent", "2.5" -> "two point five", "3-4" -> "three to four";
- "3pm" -> "three p m", "9:30am" -> "nine thirty a m", "10:05" -> "ten oh five";
- "the 3rd" -> "the third";
- "CRM" -> "c r m" (letter by letter) unless the acronym is said as a word;
- "anna.kovacs@greenway.co.uk" -> "anna dot kovacs at greenway dot co dot uk".
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SCALES = [(10**9, "billion"), (10**6, "million"), (1000, "thousand")]
ORDINAL_WORDS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
                 "nine": "ninth", "twelve": "twelfth"}
CURRENCIES = {"€": ("euro", "euros"), "£": ("pound", "pounds"), "$": ("dollar", "dollars")}
# Acronyms people say as a word rather than letter by letter.
SAID_AS_WORD = {"VAT": "vat", "PIN": "pin", "SaaS": "sass", "COVID": "covid", "OK": "okay", "NATO": "nato",
                "Ofsted": "ofsted", "OFSTED": "ofsted", "SCADA": "scada", "CAD": "cad", "IKEA": "ikea",
                "LEED": "leed", "JPEG": "jpeg", "JPEGs": "jpegs", "ISA": "isa", "ISAs": "isas"}
ABBREVIATIONS = {"Mr": "mister", "Mrs": "missus", "Ms": "miz", "Dr": "doctor", "vs": "versus", "etc": "et cetera"}
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"


def cardinal(n):
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + cardinal(rest))
    for size, name in SCALES:
        if n >= size:
            rest = n % size
            return cardinal(n // size) + " " + name + ("" if rest == 0 else " " + cardinal(rest))
    raise ValueError(n)


def ordinal(n):
    words = cardinal(n).split()
    last = words[-1]
    if last in ORDINAL_WORDS:
        words[-1] = ORDINAL_WORDS[last]
    elif last.endswith("y"):
        words[-1] = last[:-1] + "ieth"
    else:
        words[-1] = last + "th"
    return " ".join(words)


def year(n):
    """How a four-digit number without a comma is said: 2026 -> twenty twenty six."""
    high, low = divmod(n, 100)
    if low == 0:
        return cardinal(high) + " hundred" if high % 10 else cardinal(n)
    if 2000 <= n < 2010:
        return cardinal(n)
    return cardinal(high) + " " + ("oh " + ONES[low] if low < 10 else cardinal(low))


def number(text):
    """A written number as said: digits with thousands commas, or a decimal."""
    whole, _, fraction = text.replace(",", "").partition(".")
    if len(whole) == 4 and "," not in text and not fraction:
        return year(int(whole))
    said = cardinal(int(whole))
    if fraction:
        said += " point " + " ".join(ONES[int(d)] for d in fraction)
    return said


def spell_address(text):
    """An email or web address as said: dots, ats and dashes as words,
    digits one by one."""
    names = {".": " dot ", "@": " at ", "-": " dash ", "_": " underscore ", "/": " slash ", ":": " "}
    said = "".join(names.get(c, " " + ONES[int(c)] + " " if c.isdigit() else c) for c in text)
    said = re.sub(r"^https?\s+slash\s+slash\s+", "", said)
    said = re.sub(r"\bwww\b", "w w w", said)
    return said


def amount(match):
    singular, plural = CURRENCIES[match.group("cur")]
    digits, scale = match.group("num"), match.group("scale")
    if scale:
        return f" {number(digits)} {scale} {plural} "
    whole, _, fraction = digits.replace(",", "").partition(".")
    said = cardinal(int(whole)) + " " + (singular if whole == "1" else plural)
    # "£3.50" is said "three pounds fifty".
    if fraction and int(fraction):
        said += " " + cardinal(int(fraction))
    return f" {said} "


def clock(match):
    hour, minute, half = int(match.group("h")), match.group("m"), match.group("half")
    said = cardinal(hour)
    if minute and minute != "00":
        said += " " + ("oh " + ONES[int(minute)] if minute.startswith("0") else cardinal(int(minute)))
    elif minute == "00" and not half:
        said += " o'clock"
    if half:
        said += " " + " ".join(half.replace(".", "").lower())
    return f" {said} "


def acronym(token):
    if token in SAID_AS_WORD:
        return SAID_AS_WORD[token]
    if re.fullmatch(r"[A-Z0-9]*[A-Z][A-Z0-9]*s?", token) and len(token) >= 2 and not token.isdigit():
        # Letter by letter, digits as numbers, a plural s kept on the last letter.
        plural = token.endswith("s") and token[:-1].isupper()
        core = token[:-1] if plural else token
        parts = re.findall(r"\d+|[A-Z]", core)
        said = " ".join(number(p) if p.isdigit() else p.lower() for p in parts)
        return said + ("s" if plural else "")
    return token


def vosk_form(text):
    # Speaker labels ("Name: " opening a line) are not heard.
    text = re.sub(r"(?m)^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}: ", "", text)
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = re.sub(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", lambda m: f" {spell_address(m.group(0))} ", text)
    text = re.sub(r"\b(?:https?://)?(?:www\.)?[\w-]+(?:\.(?:com|co|uk|org|io|net|de|fr|ie|eu|gov|edu))+(?:/[\w/-]*)?",
                  lambda m: f" {spell_address(m.group(0))} ", text)
    text = re.sub(rf"(?P<cur>[€£$])(?P<num>{NUMBER})(?: ?(?P<scale>million|billion|thousand))?", amount, text)
    text = re.sub(rf"({NUMBER})%", lambda m: f" {number(m.group(1))} percent ", text)
    text = re.sub(r"\b(?P<h>\d{1,2})(?::(?P<m>\d{2}))? ?(?P<half>[ap]\.?m\.?)(?=\W|$)", clock, text,
                  flags=re.IGNORECASE)
    text = re.sub(r"\b(?P<h>\d{1,2}):(?P<m>\d{2})\b(?P<half>)", clock, text)
    text = re.sub(r"\b(\d+)(?:st|nd|rd|th)\b", lambda m: f" {ordinal(int(m.group(1)))} ", text)
    text = re.sub(r"\b24/7\b", " twenty four seven ", text)
    text = re.sub(rf"\b({NUMBER})\s*[-\u2013]\s*({NUMBER})\b",
                  lambda m: f" {number(m.group(1))} to {number(m.group(2))} ", text)
    text = re.sub(r"\b(?:Mr|Mrs|Ms|Dr|vs|etc)\b\.?", lambda m: ABBREVIATIONS[m.group(0).rstrip(".")], text)
    text = text.replace("&", " and ").replace("+", " plus ")
    text = re.sub(r"\b[A-Za-z0-9]*[A-Z][A-Za-z0-9]*\b", lambda m: acronym(m.group(0)), text)
    text = re.sub(NUMBER, lambda m: f" {number(m.group(0))} ", text)
    text = text.replace("\u2014", " ").replace("\u2013", " ").replace("-", " ").replace("/", " ")
    # Punctuation goes; an apostrophe inside a word stays (i'll, client's).
    text = re.sub(r"[^\w'\s]", " ", text)
    text = re.sub(r"(?<!\w)'|'(?!\w)", " ", text)
    return " ".join(text.lower().split()) + "\n"


def meetings():
    folder = os.path.join(HERE, "whisper")
    return sorted(name[:-4] for name in os.listdir(folder) if name.endswith(".txt"))


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    os.makedirs(os.path.join(HERE, "vosk"), exist_ok=True)
    for name in meetings():
        with open(os.path.join(HERE, "whisper", name + ".txt")) as f:
            said = vosk_form(f.read())
        path = os.path.join(HERE, "vosk", name + ".txt")
        current = open(path).read() if os.path.exists(path) else None
        if current != said:
            stale.append(name)
            if not check:
                with open(path, "w") as f:
                    f.write(said)
    if check and stale:
        sys.exit("vosk form out of date for " + ", ".join(stale) + ": run bench/data/meetings/vosk_form.py")
    print(f"{len(meetings())} meetings, {len(stale)} {'stale' if check else 'rewritten'}")


if __name__ == "__main__":
    main()
