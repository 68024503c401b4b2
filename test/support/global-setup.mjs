// Once per Jest run: JetStream streams that test files made under their `t<hex>` subject prefix
// (events, membership and edge-route buckets) and left on the shared NATS server, older than an
// hour so no file of a concurrent run loses its own. Files clean up what they can; a killed run cannot.
import { connect } from 'nats';

const OLDER_THAN_MS = 60 * 60_000;
const TEST_STREAM = /_t[0-9a-f]{10}$/;

export default async function globalSetup() {
  const nc = await connect({ servers: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', timeout: 2_000 }).catch(
    () => undefined,
  );
  if (!nc) return; // no NATS yet: the tests that need it say so themselves
  try {
    const jsm = await nc.jetstreamManager();
    const stale = [];
    for await (const info of jsm.streams.list())
      if (TEST_STREAM.test(info.config.name) && Date.now() - Date.parse(info.created) > OLDER_THAN_MS)
        stale.push(info.config.name);
    for (const name of stale) await jsm.streams.delete(name).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
