import { STATUS_CODES, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PAGES, PageName, pageBody } from './pages';

const HTML = 'text/html; charset=utf-8';

export function sendPage(res: ServerResponse, page: PageName, close = false): void {
  const body = pageBody(page);
  res.writeHead(PAGES[page].status, {
    'content-type': HTML,
    'content-length': body.length,
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}

export function sendRedirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, 'content-length': 0 });
  res.end();
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** An HTTP/1.1 answer written on a raw socket (a refused upgrade), then the socket is closed. */
export function writeRaw(
  socket: Duplex,
  status: number,
  headers: Record<string, string | number>,
  body: Uint8Array = new Uint8Array(0),
): void {
  if (socket.destroyed) return;
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries({ ...headers, 'content-length': body.length, connection: 'close' })) {
    lines.push(`${name}: ${value}`);
  }
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]));
}

export function writeRawPage(socket: Duplex, page: PageName): void {
  writeRaw(socket, PAGES[page].status, { 'content-type': HTML, 'cache-control': 'no-store' }, pageBody(page));
}
