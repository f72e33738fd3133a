/**
 * Harness overhead: requests/s through the harness's full path (token Authorization header,
 * recording, redaction, curl, contract validation of every response by a CheckRun-bound
 * GatewayClient) against raw undici (a `Pool` with the same number of connections, the same
 * headers, the body read to the end) on the same reference endpoint and concurrency.
 *
 * Raw and harness runs alternate round by round (raw first in even rounds, harness first in odd
 * ones) and the median of the rounds is reported, so a burst of load from another process on the
 * machine hits both sides alike. Goal: harness ≥ 80 % of raw throughput.
 */
import { Pool } from 'undici';
import type { Session } from '../harness/run/session.js';
import type { CheckRun } from '../harness/run/check-run.js';
import type { GatewayClient } from '../harness/http/gateway-client.js';
import { defaultRedactor } from '../harness/http/redact.js';
import { median, round, runLoad } from './load.js';
import type { LoadResult } from './load.js';
import { startBenchReference } from './reference.js';
import type { ReferenceMode } from './reference.js';
import { benchSession } from './session.js';
import { measureStages } from './stages.js';
import type { StagesResult } from './stages.js';

export const OVERHEAD_GOAL = 0.8;

/** A valid CPF (check digits correct), the customer of every charge the bench creates. */
export const BENCH_CPF = '52998224725';

export type OverheadEndpoint = 'balance' | 'pix-lookup';

export interface OverheadOptions {
  endpoints: OverheadEndpoint[];
  concurrencies: number[];
  rounds: number;
  durationMs: number;
  maxRequests: number;
  warmupPerWorker?: number;
  /** exchanges per CheckRun before a fresh one is made (a test's worth of requests) */
  requestsPerCheck?: number;
}

export interface OverheadRow {
  endpoint: OverheadEndpoint;
  path: string;
  concurrency: number;
  connections: number;
  rawRps: number;
  harnessRps: number;
  /** harness rps / raw rps (medians of the rounds) */
  ratio: number;
  rawCpuUsPerRequest: number;
  harnessCpuUsPerRequest: number;
  rawLatencyP50Ms: number;
  harnessLatencyP50Ms: number;
  /** failed requests or contract findings (must be 0: the reference conforms) */
  errors: number;
  meetsGoal: boolean;
  rounds: { raw: LoadResult; harness: LoadResult }[];
}

export interface OverheadResult {
  goal: number;
  rows: OverheadRow[];
  /** worst ratio over the rows */
  worstRatio: number;
  meetsGoal: boolean;
}

const PATHS: Record<OverheadEndpoint, string> = {
  balance: '/api/v1/balance',
  'pix-lookup': '/api/v1/pix/in/qrcode/{transactionId}',
};

/** Creates one PIX charge through the harness and returns its id (the lookup target). */
export async function createBenchCharge(session: Session): Promise<string> {
  const run = session.check('bench: create the lookup target');
  const r = await session.gateway(run).createPixCharge({ amountInCents: 1234, customer: { documentType: 'cpf', document: BENCH_CPF, name: 'Bench Payer' }, description: 'bench' });
  const id = (r.json as { data?: { id?: unknown } } | undefined)?.data?.id;
  if (r.status !== 200 || typeof id !== 'string') throw new Error(`bench: could not create a PIX charge (status ${r.status}): ${r.exchange.response?.body.slice(0, 200) ?? r.exchange.error}`);
  run.finish();
  return id;
}

/** Per-worker CheckRun + client, renewed every `requestsPerCheck` requests (as tests would). */
class HarnessWorker {
  private run: CheckRun;
  private client: GatewayClient;
  private used = 0;
  findings = 0;

  constructor(
    private readonly session: Session,
    private readonly requestsPerCheck: number,
  ) {
    this.run = session.check('bench: harness overhead');
    this.client = session.gateway(this.run);
  }

  async send(endpoint: OverheadEndpoint, chargeId: string): Promise<boolean> {
    if (this.used >= this.requestsPerCheck) this.renew();
    this.used += 1;
    const before = this.run.failures.length + this.run.warnings.length;
    const r = endpoint === 'balance' ? await this.client.getBalance() : await this.client.getPixCharge(chargeId);
    const after = this.run.failures.length + this.run.warnings.length;
    if (after > before) this.findings += after - before;
    return r.status === 200 && after === before;
  }

  private renew(): void {
    try {
      this.run.finish();
    } catch {
      // a finding was already counted in `send`
    }
    this.run = this.session.check('bench: harness overhead');
    this.client = this.session.gateway(this.run);
    this.used = 0;
  }
}

/** Raw undici on the same origin: same headers, body read to the end, nothing else. */
function rawSender(pool: Pool, path: string, token: string): () => Promise<boolean> {
  const headers = { 'user-agent': 'paygate-conformance', accept: 'application/json', authorization: `Bearer ${token}` };
  return async () => {
    const res = await pool.request({ path, method: 'GET', headers });
    await res.body.text();
    return res.statusCode === 200;
  };
}

/**
 * Measures every (endpoint, concurrency). `makeSession(connections)` builds a fresh harness
 * Session against the running reference with that pool size (closed here).
 */
export async function measureOverhead(makeSession: (connections: number) => Promise<Session>, options: OverheadOptions): Promise<OverheadResult> {
  const rows: OverheadRow[] = [];
  const requestsPerCheck = options.requestsPerCheck ?? 50;
  for (const concurrency of options.concurrencies) {
    const connections = Math.max(1, concurrency);
    const session = await makeSession(connections);
    try {
      const gatewayHttp = session.gatewayHttp;
      if (!gatewayHttp) throw new Error('bench: the session has no gateway target');
      const chargeId = await createBenchCharge(session);
      const token = await session.tokens().getToken();
      const pool = new Pool(gatewayHttp.origin, { connections, pipelining: 1 });
      try {
        for (const endpoint of options.endpoints) {
          const path = endpoint === 'balance' ? '/api/v1/balance' : `/api/v1/pix/in/qrcode/${encodeURIComponent(chargeId)}`;
          const raw = rawSender(pool, path, token);
          const workers = Array.from({ length: concurrency }, () => new HarnessWorker(session, requestsPerCheck));
          const load = { concurrency, durationMs: options.durationMs, maxRequests: options.maxRequests, warmupPerWorker: options.warmupPerWorker ?? 3 };
          const rounds: { raw: LoadResult; harness: LoadResult }[] = [];
          for (let i = 0; i < options.rounds; i++) {
            const runRaw = (): Promise<LoadResult> => runLoad(() => raw(), load);
            const runHarness = (): Promise<LoadResult> => runLoad((w) => (workers[w] as HarnessWorker).send(endpoint, chargeId), load);
            if (i % 2 === 0) {
              const r = await runRaw();
              const h = await runHarness();
              rounds.push({ raw: r, harness: h });
            } else {
              const h = await runHarness();
              const r = await runRaw();
              rounds.push({ raw: r, harness: h });
            }
          }
          const rawRps = median(rounds.map((r) => r.raw.rps));
          const harnessRps = median(rounds.map((r) => r.harness.rps));
          const ratio = rawRps > 0 ? harnessRps / rawRps : 0;
          const findings = workers.reduce((a, w) => a + w.findings, 0);
          rows.push({
            endpoint,
            path: PATHS[endpoint],
            concurrency,
            connections,
            rawRps: round(rawRps),
            harnessRps: round(harnessRps),
            ratio: round(ratio, 3),
            rawCpuUsPerRequest: round(median(rounds.map((r) => r.raw.cpuUsPerRequest))),
            harnessCpuUsPerRequest: round(median(rounds.map((r) => r.harness.cpuUsPerRequest))),
            rawLatencyP50Ms: round(median(rounds.map((r) => r.raw.latencyP50Ms)), 2),
            harnessLatencyP50Ms: round(median(rounds.map((r) => r.harness.latencyP50Ms)), 2),
            errors: rounds.reduce((a, r) => a + r.raw.errors + r.harness.errors, 0) + findings,
            meetsGoal: ratio >= OVERHEAD_GOAL,
            rounds,
          });
        }
      } finally {
        await pool.close();
      }
    } finally {
      await session.close();
    }
  }
  const worstRatio = rows.length ? Math.min(...rows.map((r) => r.ratio)) : 0;
  return { goal: OVERHEAD_GOAL, rows, worstRatio, meetsGoal: rows.length > 0 && rows.every((r) => r.meetsGoal) };
}

/** Starts a reference, measures the overhead (and the per-stage timers on one lookup), stops it. */
export async function runHarnessOverhead(
  options: OverheadOptions & { reference: ReferenceMode; stages?: boolean; stageLimits?: { maxCalls?: number; maxMsPerStage?: number } },
): Promise<{ reference: ReferenceMode; overhead: OverheadResult; stages?: StagesResult[] }> {
  const ref = await startBenchReference(options.reference);
  try {
    const overhead = await measureOverhead((connections) => benchSession(ref.info, { connections }), options);
    if (!options.stages) return { reference: ref.mode, overhead };
    const session = await benchSession(ref.info, { connections: 1 });
    try {
      const chargeId = await createBenchCharge(session);
      const run = session.check('bench: stage timers');
      const gw = session.gateway(run);
      const stages: StagesResult[] = [];
      for (const r of [await gw.getPixCharge(chargeId), await gw.getBalance()]) {
        // the recorded body: these responses hold no secret, so it equals the raw text
        const text = r.exchange.response?.body ?? '';
        if (!session.contract) break;
        stages.push(measureStages({ status: r.status, headers: r.headers, text, json: r.json, exchange: r.exchange }, session.contract, session.gatewayHttp?.redactor ?? defaultRedactor, options.stageLimits));
      }
      return { reference: ref.mode, overhead, stages };
    } finally {
      await session.close();
    }
  } finally {
    await ref.stop();
  }
}
