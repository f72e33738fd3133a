/**
 * The reference sandbox for the benchmarks.
 *
 * Default: a CHILD PROCESS (`tsx reference/main.ts --json`, through harness/config/target.ts, exactly as
 * the conformance run starts it). On this 2-core machine that gives the reference its own core and
 * event loop, so the harness-vs-raw comparison measures the client side, and the reference's
 * throughput is not taxed by the load generator sharing its event loop. `in-process` (startReference
 * from reference/server.ts) is kept for comparison and for the smoke test, where process start-up
 * time matters more than fairness.
 */
import type { ReferenceInfo } from '../harness/config/target.js';
import { startEmbeddedReference } from '../harness/config/target.js';

export type ReferenceMode = 'child' | 'in-process';

export interface BenchReference {
  info: ReferenceInfo;
  mode: ReferenceMode;
  stop(): Promise<void>;
}

/** Reference-side settings for benchmarking: long token lifetime, no partner webhook target, no faults. */
export const BENCH_REFERENCE_ENV: Record<string, string> = {
  REFERENCE_TOKEN_TTL_MS: String(60 * 60_000),
  REFERENCE_PARTNER_WEBHOOK_URL: '',
  REFERENCE_FAULTS: '',
  REFERENCE_CHAOS: '',
  REFERENCE_HOST: '127.0.0.1',
  REFERENCE_GATEWAY_PORT: '0',
  REFERENCE_PARTNER_PORT: '0',
};

export async function startBenchReference(mode: ReferenceMode = 'child'): Promise<BenchReference> {
  if (mode === 'in-process') {
    const { startReference } = await import('../reference/server.js');
    const running = await startReference({
      host: '127.0.0.1',
      gatewayPort: 0,
      partnerPort: 0,
      faults: new Set<string>(),
      tokenTtlMs: 60 * 60_000,
      partnerWebhookUrl: undefined,
      chaos: false,
    });
    return { info: running.info, mode, stop: () => running.close() };
  }
  const child = await startEmbeddedReference({
    // unused: BENCH_REFERENCE_ENV clears the partner webhook URL (no deliveries during the bench)
    callbackPublicUrl: 'http://127.0.0.1:9',
    faults: '',
    env: BENCH_REFERENCE_ENV,
  });
  return { info: child.info, mode, stop: () => child.stop() };
}
