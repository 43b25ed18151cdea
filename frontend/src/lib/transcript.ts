// A transcript as the page shows it: in the paragraphs the server wrote, with its size.

/** Paragraphs at blank lines, trimmed; single line breaks stay inside their paragraph. */
export function transcriptParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[^\S\n]*\n\s*/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** Words, for "(312 words)": runs of letters or digits, so punctuation does not count. */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}
