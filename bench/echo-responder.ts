import { connect } from 'nats';

/**
 * The raw NATS baseline of the throughput benchmark: a plain subscriber that answers every
 * request with its own payload, in a process of its own like the actor node it is compared with.
 * Env: NATS_URL, ECHO_SUBJECT. Exits on SIGTERM or when its parent closes stdin.
 */
async function main(): Promise<void> {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'bench-echo' });
  const subject = process.env.ECHO_SUBJECT ?? 'bench.echo';
  nc.subscribe(subject, { callback: (err, msg) => (err ? undefined : msg.respond(msg.data)) });
  await nc.flush();
  process.stdout.write(`echo ready on ${subject}\n`);
  const stop = () => void nc.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.once('end', stop).resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`echo responder failed: ${String(error)}\n`);
  process.exit(1);
});
