/**
 * `npx tsx bench/harness-path.ts [N] [balance|pix-lookup]`: the harness's CPU per request with the network taken out.
 * Two real responses (balance, PIX lookup) are fetched once from an in-process reference, then
 * replayed by a canned dispatcher (through `dispatchScope`) N times each: raw (the dispatcher and
 * the body read only) against the harness's whole path (gateway client, token, record, contract
 * validation by a CheckRun renewed every 50 requests, as bench/overhead.ts does). CPU µs per
 * request from `process.cpuUsage`, two rounds each: steadier on a loaded machine than req/s, and
 * free of the reference's and the kernel's share (docs/PERFORMANCE.md).
 */
import type { Dispatcher } from 'undici';
import { dispatchScope } from '../harness/http/client.js';
import { createBenchCharge } from './overhead.js';
import { startBenchReference } from './reference.js';
import { benchSession } from './session.js';

interface Canned {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const N = Number(process.argv[2] ?? 30_000);
const only = process.argv[3];
const ref = await startBenchReference('in-process');
const session = await benchSession(ref.info, { connections: 4 });
const origin = session.gatewayHttp?.origin;
if (origin === undefined) throw new Error('no gateway target');
const id = await createBenchCharge(session);
const first = session.gateway(session.check('bench: canned responses'));
const canned = new Map<string, Canned>();
for (const [endpoint, call] of [['balance', () => first.getBalance()], ['pix-lookup', () => first.getPixCharge(id)]] as const) {
  const r = await call();
  canned.set(endpoint, { status: r.status, headers: r.headers, body: Buffer.from(r.exchange.response?.body ?? '') });
}
await ref.stop();

for (const [endpoint, c] of canned) {
  if (only !== undefined && endpoint !== only) continue;
  // just what harness/http/client.ts reads of an undici response
  const fake = {
    request: () =>
      Promise.resolve({
        statusCode: c.status,
        headers: c.headers,
        body: { arrayBuffer: () => Promise.resolve(new Uint8Array(c.body).buffer), text: () => Promise.resolve(c.body.toString('utf8')) },
      }),
  } as unknown as Dispatcher;
  for (const mode of ['raw', 'harness', 'raw', 'harness'] as const) {
    let run = session.check('bench: harness path');
    let gw = session.gateway(run);
    let used = 0;
    const cpu0 = process.cpuUsage();
    await dispatchScope.run({ origin, dispatcher: fake }, async () => {
      for (let i = 0; i < N; i++) {
        if (mode === 'raw') {
          const res = (await fake.request({ origin, path: '/', method: 'GET' })) as unknown as { body: { text(): Promise<string> } };
          await res.body.text();
          continue;
        }
        if (++used > 50) {
          run.finish();
          run = session.check('bench: harness path');
          gw = session.gateway(run);
          used = 0;
        }
        const r = endpoint === 'balance' ? await gw.getBalance() : await gw.getPixCharge(id);
        if (r.status !== 200 || run.failures.length > 0) throw new Error(`bench: unexpected ${r.status} or finding`);
      }
    });
    const cpu = process.cpuUsage(cpu0);
    console.log(`${endpoint.padEnd(10)} ${mode.padEnd(7)} ${((cpu.user + cpu.system) / N).toFixed(2)} µs CPU/request`);
  }
}
await session.close();
