import { NatsBus, NoRespondersError, RequestTimeoutError } from '@app/bus';
import { randomUUID } from 'node:crypto';
import { TEST_NATS_URL } from '@test/support';
import { DiscardPolicy } from 'nats';

/** Request-reply over a real NATS server: answers, no responders, timeouts, a closing bus. */
describe('NatsBus request-reply (real NATS)', () => {
  let server: NatsBus;
  let client: NatsBus;
  const prefix = `t${randomUUID().slice(0, 8)}`;
  const slowAnswers = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    server = await NatsBus.connect([TEST_NATS_URL], 'bus-test-server', prefix);
    client = await NatsBus.connect([TEST_NATS_URL], 'bus-test-client', prefix);
    server.serve('echo.>', async (payload, subject) => ({ subject, payload }));
    // Its answers come late; the timers still waiting when the file ends are cleared in afterAll.
    server.serve('slow', () => new Promise((resolve) => slowAnswers.add(setTimeout(() => resolve('late'), 800))));
    await server.connection.flush();
  });
  afterAll(async () => {
    slowAnswers.forEach(clearTimeout);
    await client?.close();
    await server?.close();
  });

  it('answers each request with its own reply, many at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.request(`echo.${i}`, { n: i }, 5_000)),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => ({ subject: `echo.${i}`, payload: { n: i } })));
  });

  it('says at once that nobody serves a subject, and times out a slow answer', async () => {
    const started = Date.now();
    await expect(client.request('nobody.here', {}, 5_000)).rejects.toBeInstanceOf(NoRespondersError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(client.request('slow', {}, 200)).rejects.toBeInstanceOf(RequestTimeoutError);
    // The late answer to the timed-out request is dropped; the next request gets its own.
    await new Promise((resolve) => setTimeout(resolve, 800));
    await expect(client.request('echo.after', 1, 5_000)).resolves.toEqual({ subject: 'echo.after', payload: 1 });
  });

  it('fails the requests still waiting when it closes', async () => {
    const own = await NatsBus.connect([TEST_NATS_URL], 'bus-test-closing', prefix);
    const waiting = own.request('slow', {}, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = own.close();
    await expect(waiting).rejects.toThrow('The bus was closed');
    await closing;
  });

  it('publishes to a JetStream stream and waits for its acknowledgement, a repeated message id stored once', async () => {
    const stream = `BUSTEST_${prefix}`;
    const jsm = await client.connection.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.stream.>`] });
    try {
      const data = new TextEncoder().encode('{"n":1}');
      await client.publishToStream(`${prefix}.stream.a`, data, { 'Nats-Msg-Id': 'msg-1' });
      await client.publishToStream(`${prefix}.stream.a`, data, { 'Nats-Msg-Id': 'msg-1' });
      await client.publishToStream(`${prefix}.stream.b`, data, { 'Nats-Msg-Id': 'msg-2' });
      expect((await jsm.streams.info(stream)).state.messages).toBe(2);
      // A subject no stream captures: nobody answers, at once.
      const started = Date.now();
      await expect(
        client.publishToStream(`${prefix}.nostream`, data, { 'Nats-Msg-Id': 'msg-3' }),
      ).rejects.toBeInstanceOf(NoRespondersError);
      expect(Date.now() - started).toBeLessThan(1_000);
      // The stream's own refusal (a full stream that discards new messages) is an error, not an ack.
      await jsm.streams.update(stream, { subjects: [`${prefix}.stream.>`], max_msgs: 2, discard: DiscardPolicy.New });
      await expect(client.publishToStream(`${prefix}.stream.c`, data, { 'Nats-Msg-Id': 'msg-4' })).rejects.toThrow(
        /JetStream refused/,
      );
    } finally {
      await jsm.streams.delete(stream);
    }
  });
});
