/** What a reader sees of rendered markup, for specs: tags dropped, whitespace collapsed. */
export const htmlText = (html: { toString(): string }): string =>
  html
    .toString()
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
