// Streaming decode: the text each id settles, complete characters at once, an unfinished
// character's bytes held back. TextDecoder in stream mode follows the WHATWG UTF-8 decoder,
// which emits U+FFFD as soon as a byte cannot continue a character (and never early).

/** What feed returned for each id, then what flush returned: one fresh decoder. */
export function streamDecode(vocab, ids) {
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  const feeds = [];
  for (const id of ids) {
    const data = vocab.get(id);
    if (data === undefined) {
      const error = new Error(`unknown token id ${id}: it is not in the vocabulary`);
      error.kind = "ValueError";
      throw error;
    }
    feeds.push(decoder.decode(data, { stream: true }));
  }
  return { feeds, flush: decoder.decode() };
}
