/**
 * DNS over TCP (RFC 7766): each message behind its 2-byte length, several per connection. Feed
 * chunks as they arrive; complete messages come out in order.
 */
export class TcpFraming {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const messages: Buffer[] = [];
    while (this.buffered.length >= 2 && this.buffered.length >= 2 + this.buffered.readUInt16BE(0)) {
      const length = this.buffered.readUInt16BE(0);
      messages.push(this.buffered.subarray(2, 2 + length));
      this.buffered = this.buffered.subarray(2 + length);
    }
    return messages;
  }
}

export function frame(message: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length);
  return Buffer.concat([length, message]);
}
