// The real CLI (harness/cli/main.ts through tsx) over the project's own fixture suites
// (PAYGATE_INCLUDE, written under reports/ so they resolve the project's packages), against a dead
// loopback port: fixtures make no requests, so no preflight.
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceCli } from './fault-matrix/runner.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export function runFixtureCli(args: readonly string[], fixtures: string, out: string, extraEnv: NodeJS.ProcessEnv = {}): ReturnType<typeof spawnSync> & { stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|TEST$|GATEWAY_|PARTNER_|PAYGATE_|CALLBACK_|HTTPS?_PROXY$|NO_PROXY$)/i.test(k)) env[k] = v;
  Object.assign(env, {
    GATEWAY_BASE_URL: 'http://127.0.0.1:9',
    GATEWAY_CLIENT_ID: 'fixture-id',
    GATEWAY_CLIENT_SECRET: 'fixture-secret',
    CALLBACK_PORT: '0',
    CI: 'true',
    NO_COLOR: '1',
    // the target is a dead port on purpose (fixtures send nothing): no preflight probes
    PAYGATE_PREFLIGHT: '0',
    PAYGATE_INCLUDE: `${relative(ROOT, fixtures)}/*.test.ts`,
    PAYGATE_REPORTS_DIR: out,
    ...extraEnv,
  });
  return spawnSync(process.execPath, conformanceCli(args), { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000 });
}
