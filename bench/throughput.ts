/**
 * Reference throughput: requests/s the reference sandbox sustains for charge creation (gateway:
 * with EMV and QR PNG; partner: BR Code) and lookups, measured with raw undici so the harness's own
 * cost is not in the number. Each case runs at every concurrency with a pool of that many
 * connections, bounded in time and count (created charges stay in the reference's memory).
 */
import { Pool } from 'undici';
import type { ReferenceInfo } from '../harness/config/target.js';
import { runLoad } from './load.js';
import type { LoadResult } from './load.js';
import { BENCH_CPF } from './overhead.js';

export type ThroughputCase = 'gateway create' | 'gateway lookup' | 'partner create' | 'partner lookup';
export const THROUGHPUT_CASES: readonly ThroughputCase[] = ['gateway create', 'gateway lookup', 'partner create', 'partner lookup'];

export interface ThroughputOptions {
  cases?: readonly ThroughputCase[];
  concurrencies: number[];
  durationMs: number;
  maxRequests: number;
}

export interface ThroughputRow extends LoadResult {
  case: ThroughputCase;
  operation: string;
}

interface Endpoint {
  origin: string;
  basePath: string;
}

function endpoint(baseUrl: string): Endpoint {
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

async function readJson(res: { body: { text(): Promise<string> } }): Promise<unknown> {
  const text = await res.body.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const GATEWAY_CHARGE = JSON.stringify({ amountInCents: 1234, customer: { documentType: 'cpf', document: BENCH_CPF, name: 'Bench Payer' }, description: 'bench' });
const PARTNER_CHARGE = JSON.stringify({ amount_cents: 1234, description: 'bench' });

/** A gateway token for the sandbox pair (POST /api/auth, HTTP Basic). */
async function gatewayToken(pool: Pool, basePath: string, info: ReferenceInfo): Promise<string> {
  const basic = Buffer.from(`${info.gateway.clientId}:${info.gateway.clientSecret}`).toString('base64');
  const res = await pool.request({ path: `${basePath}/api/auth`, method: 'POST', headers: { authorization: `Basic ${basic}` } });
  const body = (await readJson(res)) as { token?: unknown } | undefined;
  if (typeof body?.token !== 'string') throw new Error(`bench: POST /api/auth answered ${res.statusCode}`);
  return body.token;
}

export async function measureThroughput(info: ReferenceInfo, options: ThroughputOptions): Promise<ThroughputRow[]> {
  const cases = options.cases ?? THROUGHPUT_CASES;
  const gw = endpoint(info.gateway.baseUrl);
  const pt = endpoint(info.partner.baseUrl);
  const rows: ThroughputRow[] = [];
  for (const concurrency of options.concurrencies) {
    const connections = Math.max(1, concurrency);
    const gwPool = new Pool(gw.origin, { connections, pipelining: 1 });
    const ptPool = new Pool(pt.origin, { connections, pipelining: 1 });
    try {
      const token = await gatewayToken(gwPool, gw.basePath, info);
      const gwHeaders = { authorization: `Bearer ${token}`, accept: 'application/json' };
      const gwJsonHeaders = { ...gwHeaders, 'content-type': 'application/json' };
      const ptHeaders = { authorization: `Bearer ${info.partner.apiKey}`, accept: 'application/json' };
      const ptJsonHeaders = { ...ptHeaders, 'content-type': 'application/json' };

      const gwCreate = async (): Promise<{ ok: boolean; id?: string }> => {
        const res = await gwPool.request({ path: `${gw.basePath}/api/v1/pix/in/qrcode`, method: 'POST', headers: gwJsonHeaders, body: GATEWAY_CHARGE });
        const body = (await readJson(res)) as { data?: { id?: unknown; pix?: { emv?: unknown; qrCode?: unknown } } } | undefined;
        const id = body?.data?.id;
        const ok = res.statusCode === 200 && typeof body?.data?.pix?.emv === 'string' && typeof body.data.pix.qrCode === 'string';
        return typeof id === 'string' ? { ok, id } : { ok };
      };
      const ptCreate = async (): Promise<{ ok: boolean; id?: string }> => {
        const res = await ptPool.request({ path: `${pt.basePath}/business/pix-charges`, method: 'POST', headers: ptJsonHeaders, body: PARTNER_CHARGE });
        const body = (await readJson(res)) as { id?: unknown; qr_code?: unknown } | undefined;
        const ok = res.statusCode >= 200 && res.statusCode < 300 && typeof body?.qr_code === 'string';
        return typeof body?.id === 'string' ? { ok, id: body.id } : { ok };
      };
      const gwId = (await gwCreate()).id;
      const ptId = (await ptCreate()).id;
      if (gwId === undefined || ptId === undefined) throw new Error('bench: could not create the lookup targets on the reference');

      const run: Record<ThroughputCase, { operation: string; fn: () => Promise<boolean> }> = {
        'gateway create': { operation: 'POST /api/v1/pix/in/qrcode', fn: async () => (await gwCreate()).ok },
        'gateway lookup': {
          operation: 'GET /api/v1/pix/in/qrcode/{transactionId}',
          fn: async () => {
            const res = await gwPool.request({ path: `${gw.basePath}/api/v1/pix/in/qrcode/${gwId}`, method: 'GET', headers: gwHeaders });
            await res.body.text();
            return res.statusCode === 200;
          },
        },
        'partner create': { operation: 'POST /v1/business/pix-charges', fn: async () => (await ptCreate()).ok },
        'partner lookup': {
          operation: 'GET /v1/business/pix-charges/{id}',
          fn: async () => {
            const res = await ptPool.request({ path: `${pt.basePath}/business/pix-charges/${ptId}`, method: 'GET', headers: ptHeaders });
            await res.body.text();
            return res.statusCode === 200;
          },
        },
      };
      for (const c of cases) {
        const result = await runLoad(run[c].fn, { concurrency, durationMs: options.durationMs, maxRequests: options.maxRequests, warmupPerWorker: 2 });
        rows.push({ case: c, operation: run[c].operation, ...result });
      }
    } finally {
      await Promise.all([gwPool.close(), ptPool.close()]);
    }
  }
  return rows;
}
