/**
 * `node --import tsx [--cpu-prof --cpu-prof-dir DIR] bench/overhead-profile.ts harness|raw balance|pix-lookup CONC MS`:
 * one side of bench/overhead.ts alone against the child reference (same connections, headers and
 * CheckRun renewal as the bench), for a CPU profile of the client. Prints one JSON line: req/s, the
 * client's CPU per request (user, system), and the reference's (its process and children, from
 * /proc), so a run says whose CPU bounds it (`clientCores`, `referenceCores`: cores busy on average).
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { createBenchCharge } from './overhead.js';
import { startBenchReference } from './reference.js';
import { benchSession } from './session.js';
import { runLoad } from './load.js';

const [side = 'harness', endpoint = 'pix-lookup', concArg = '1', msArg = '4000'] = process.argv.slice(2);
const concurrency = Number(concArg);
const ref = await startBenchReference('child');
const session = await benchSession(ref.info, { connections: concurrency });
const id = await createBenchCharge(session);
const token = await session.tokens().getToken();
const origin = session.gatewayHttp?.origin ?? '';
const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
const path = endpoint === 'balance' ? '/api/v1/balance' : `/api/v1/pix/in/qrcode/${encodeURIComponent(id)}`;
const headers = { 'user-agent': 'paygate-conformance', accept: 'application/json', authorization: `Bearer ${token}` };
const runs = Array.from({ length: concurrency }, () => ({ run: session.check('bench: profile'), used: 0 }));
const send = async (w: number): Promise<boolean> => {
  if (side === 'raw') {
    const res = await pool.request({ path, method: 'GET', headers });
    await res.body.text();
    return res.statusCode === 200;
  }
  const slot = runs[w]!;
  if (++slot.used > 50) {
    slot.run.finish();
    slot.run = session.check('bench: profile');
    slot.used = 0;
  }
  const gw = session.gateway(slot.run);
  const r = endpoint === 'balance' ? await gw.getBalance() : await gw.getPixCharge(id);
  return r.status === 200 && slot.run.failures.length === 0;
};
/** CPU ticks (user + system, 1/100 s) of this process's descendants (the reference child and its own children). */
function childTicks(pid: number): number {
  let total = 0;
  let kids: string[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return 0;
  }
  for (const k of kids) {
    try {
      const f = readFileSync(`/proc/${k}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      total += Number(f[11]) + Number(f[12]);
    } catch {
      // ended
    }
    total += childTicks(Number(k));
  }
  return total;
}
const r0 = childTicks(process.pid);
const c0 = process.cpuUsage();
const result = await runLoad(send, { concurrency, durationMs: Number(msArg), maxRequests: 1_000_000, warmupPerWorker: 50 });
const c = process.cpuUsage(c0);
const refUs = ((childTicks(process.pid) - r0) * 10_000) / result.requests;
console.log(JSON.stringify({ side, endpoint, ...result, userUs: Math.round(c.user / result.requests), sysUs: Math.round(c.system / result.requests), referenceCpuUsPerRequest: Math.round(refUs), clientCores: Math.round((c.user + c.system) / 1000 / result.elapsedMs * 100) / 100, referenceCores: Math.round(refUs * result.requests / 1000 / result.elapsedMs * 100) / 100 }));
await pool.close();
await session.close();
await ref.stop();
