import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';

/**
 * An authoritative "nothing here" DNS server on loopback UDP: NOERROR without answers for every
 * question, at once. Domain creation looks up CAA records; with this they are absent and fast,
 * so the benchmark measures the service, not a resolver.
 */
export async function startDnsStub(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    try {
      const query = dnsPacket.decode(message);
      const reply = dnsPacket.encode({
        type: 'response',
        id: query.id,
        flags: dnsPacket.AUTHORITATIVE_ANSWER,
        questions: query.questions,
        answers: [],
      });
      socket.send(reply, remote.port, remote.address);
    } catch {
      // not DNS: ignore
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return { address: `127.0.0.1:${port}`, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
