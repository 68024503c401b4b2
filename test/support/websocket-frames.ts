import { randomBytes } from 'node:crypto';

/** A single unfragmented text frame (payload < 126 bytes); clients mask, servers do not (RFC 6455). */
export function encodeFrame(text: string, masked: boolean): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error('Test frames carry fewer than 126 bytes');
  if (!masked) return Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
  const mask = randomBytes(4);
  const body = payload.map((byte, i) => byte ^ mask[i % 4]);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, body]);
}

/** The first complete frame in `data`, or undefined while it is incomplete. */
export function decodeFrame(data: Buffer): { text: string; length: number } | undefined {
  if (data.length < 2) return undefined;
  const masked = (data[1] & 0x80) !== 0;
  const size = data[1] & 0x7f;
  const start = 2 + (masked ? 4 : 0);
  if (size >= 126 || data.length < start + size) return undefined;
  const payload = Buffer.from(data.subarray(start, start + size));
  if (masked) for (let i = 0; i < size; i++) payload[i] ^= data[2 + (i % 4)];
  return { text: payload.toString(), length: start + size };
}
