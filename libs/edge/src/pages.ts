/** The pages the edge answers itself with. Visitors never see internal reasons. */
export const PAGES = {
  bad_request: { status: 400, title: 'Bad request', text: 'The request could not be understood.' },
  unknown_host: { status: 404, title: 'Site not found', text: 'No site is connected at this address.' },
  misdirected: { status: 421, title: 'Misdirected request', text: 'This connection cannot serve that site.' },
  too_large: { status: 413, title: 'Request too large', text: 'The request body is larger than this site accepts.' },
  origin_unreachable: {
    status: 502,
    title: 'Origin not reachable',
    text: 'The origin server of this site is not reachable.',
  },
  origin_timeout: {
    status: 504,
    title: 'Origin timed out',
    text: 'The origin server of this site did not answer in time.',
  },
  not_active: {
    status: 503,
    title: 'Site not active',
    text: 'This site is not active. If it is yours, check its setup.',
  },
  unavailable: { status: 503, title: 'Temporarily unavailable', text: 'Please try again in a moment.' },
} as const;

export type PageName = keyof typeof PAGES;

const cache = new Map<PageName, Buffer>();

/** The HTML of a page (built once). */
export function pageBody(name: PageName): Buffer {
  let body = cache.get(name);
  if (!body) {
    const { status, title, text } = PAGES[name];
    body = Buffer.from(
      `<!doctype html>\n<html><head><meta charset="utf-8"><title>${status} ${title}</title></head>` +
        `<body><h1>${title}</h1><p>${text}</p></body></html>\n`,
    );
    cache.set(name, body);
  }
  return body;
}
