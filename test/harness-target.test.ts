import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTargetConfig, notRunReason, startEmbeddedReference, targetFromReference } from '../harness/config/target.js';
import type { ReferenceInfo } from '../harness/config/target.js';
import { HarnessError } from '../harness/core/errors.js';

const gatewayEnv = { GATEWAY_BASE_URL: 'https://gw.example/', GATEWAY_CLIENT_ID: 'id', GATEWAY_CLIENT_SECRET: 'secret' };
const partnerEnv = { PARTNER_BASE_URL: 'https://pt.example/v1/', PARTNER_API_KEY: 'ak_test_1' };

describe('loadTargetConfig', () => {
  it('with no base URL: the embedded reference, default callback', () => {
    expect(loadTargetConfig({})).toEqual({
      embedded: true,
      notRun: [],
      callback: { host: '127.0.0.1', port: 4799, publicUrl: 'http://127.0.0.1:4799' },
    });
  });

  it('reads the callback settings', () => {
    expect(loadTargetConfig({ CALLBACK_HOST: '0.0.0.0', CALLBACK_PORT: '5000' }).callback).toEqual({ host: '0.0.0.0', port: 5000, publicUrl: 'http://0.0.0.0:5000' });
    expect(loadTargetConfig({ CALLBACK_PUBLIC_URL: 'https://hooks.example/x/' }).callback.publicUrl).toBe('https://hooks.example/x');
    expect(() => loadTargetConfig({ CALLBACK_PORT: 'abc' })).toThrow(HarnessError);
  });

  it('both APIs with every optional variable: nothing is "not run"', () => {
    const c = loadTargetConfig({
      ...gatewayEnv,
      ...partnerEnv,
      GATEWAY_LIVE_CLIENT_ID: 'l',
      GATEWAY_LIVE_CLIENT_SECRET: 'ls',
      GATEWAY_OTHER_CLIENT_ID: 'o',
      GATEWAY_OTHER_CLIENT_SECRET: 'os',
      GATEWAY_SPLIT_EMAIL: 'split@example.com',
      PARTNER_LIVE_API_KEY: 'ak_live_1',
      PARTNER_OTHER_API_KEY: 'ak_test_2',
      PARTNER_WEBHOOK_SECRET: 'whsec',
    });
    expect(c.embedded).toBe(false);
    expect(c.notRun).toEqual([]);
    expect(c.gateway).toEqual({
      baseUrl: 'https://gw.example',
      sandbox: { clientId: 'id', clientSecret: 'secret' },
      live: { clientId: 'l', clientSecret: 'ls' },
      other: { clientId: 'o', clientSecret: 'os' },
      splitEmail: 'split@example.com',
    });
    expect(c.partner).toEqual({ baseUrl: 'https://pt.example/v1', apiKey: 'ak_test_1', liveApiKey: 'ak_live_1', otherApiKey: 'ak_test_2', webhookSecret: 'whsec' });
  });

  it('missing optional variables become "not run" capabilities with reasons', () => {
    const c = loadTargetConfig({ ...gatewayEnv, ...partnerEnv, GATEWAY_LIVE_CLIENT_ID: 'only-half' });
    expect(c.notRun.map((n) => n.capability).sort()).toEqual(['gateway.live', 'gateway.other', 'gateway.split', 'partner.live', 'partner.other', 'partner.webhooks']);
    for (const n of c.notRun) expect(n.reason).toMatch(/not set/);
    expect(notRunReason(c, 'gateway.live')).toContain('GATEWAY_LIVE_CLIENT_ID');
    expect(notRunReason(c, 'gateway')).toBeUndefined();
  });

  it('only one API configured: the other is not run', () => {
    const g = loadTargetConfig(gatewayEnv);
    expect(g.partner).toBeUndefined();
    expect(notRunReason(g, 'partner')).toContain('PARTNER_BASE_URL not set');
    expect(notRunReason(g, 'partner.webhooks')).toContain('PARTNER_BASE_URL not set');
    const p = loadTargetConfig(partnerEnv);
    expect(p.gateway).toBeUndefined();
    expect(p.notRun.find((n) => n.capability === 'gateway')?.reason).toContain('GATEWAY_BASE_URL not set');
  });

  it('a base URL without its required credentials or a malformed URL is a configuration error', () => {
    expect(() => loadTargetConfig({ GATEWAY_BASE_URL: 'https://gw.example' })).toThrow(/GATEWAY_CLIENT_ID/);
    expect(() => loadTargetConfig({ PARTNER_BASE_URL: 'https://pt.example/v1' })).toThrow(/PARTNER_API_KEY/);
    expect(() => loadTargetConfig({ ...gatewayEnv, GATEWAY_BASE_URL: 'not a url' })).toThrow(HarnessError);
    expect(() => loadTargetConfig({ ...gatewayEnv, GATEWAY_BASE_URL: 'ftp://x' })).toThrow(HarnessError);
  });
});

const info: ReferenceInfo = {
  gateway: { baseUrl: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's', liveClientId: 'lc', liveClientSecret: 'ls', otherClientId: 'oc', otherClientSecret: 'os', splitEmail: 'e@x' },
  partner: { baseUrl: 'http://127.0.0.1:2/v1', apiKey: 'ak_test_a', liveApiKey: 'ak_live_b', otherApiKey: 'ak_test_c', webhookSecret: 'w' },
};

describe('production credentials in a sandbox slot', () => {
  it('refuses a gateway sandbox pair that is the production pair, and a live partner key as the test key', () => {
    const gw = { GATEWAY_BASE_URL: 'https://gw.example', GATEWAY_CLIENT_ID: 'live-id', GATEWAY_CLIENT_SECRET: 'live-secret', GATEWAY_LIVE_CLIENT_ID: 'live-id', GATEWAY_LIVE_CLIENT_SECRET: 'live-secret' };
    expect(() => loadTargetConfig(gw)).toThrow(/sandbox pair must be a sandbox pair/);
    expect(() => loadTargetConfig({ PARTNER_BASE_URL: 'https://pt.example/v1', PARTNER_API_KEY: 'ak_live_abcdef123456' })).toThrow(/production key/);
  });
});

describe('embedded reference', () => {
  it('targetFromReference fills every capability', () => {
    const t = targetFromReference(info, { host: '127.0.0.1', port: 1, publicUrl: 'http://127.0.0.1:1' });
    expect(t.embedded).toBe(true);
    expect(t.notRun).toEqual([]);
    expect(t.gateway?.live).toEqual({ clientId: 'lc', clientSecret: 'ls' });
    expect(t.partner?.webhookSecret).toBe('w');
  });

  const dir = mkdtempSync(join(tmpdir(), 'paygate-ref-'));
  function script(name: string, body: string): string {
    const path = join(dir, name);
    writeFileSync(path, body);
    return path;
  }

  it('reads the first stdout line of the child, passes the webhook URL and kills it on stop', async () => {
    const path = script(
      'fake-ok.ts',
      `const info = ${JSON.stringify(info)};
       (info.partner as { webhookSecret: string }).webhookSecret = process.env.REFERENCE_PARTNER_WEBHOOK_URL + '|' + (process.env.REFERENCE_FAULTS ?? '') + '|' + (process.env.EXTRA ?? '') + '|' + process.argv.includes('--json');
       console.log(JSON.stringify(info));
       setInterval(() => console.log('noise'), 50);`,
    );
    const ref = await startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9/', faults: 'a,b', env: { EXTRA: 'x' }, script: path });
    expect(ref.info.partner.webhookSecret).toBe('http://127.0.0.1:9/partner|a,b|x|true');
    expect(ref.pid).toBeGreaterThan(0);
    await ref.stop();
    expect(() => process.kill(ref.pid ?? 0, 0)).toThrow();
    await ref.stop(); // idempotent
  });

  it('a child that exits before printing is a HarnessError with its stderr', async () => {
    const path = script('fake-exit.ts', `console.error('boom: port in use'); process.exit(3);`);
    await expect(startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9', script: path })).rejects.toMatchObject({ code: 'reference.exited', message: expect.stringContaining('boom') as unknown });
  });

  it('a child that prints nothing times out clearly and is killed', async () => {
    const path = script('fake-silent.ts', `setInterval(() => undefined, 1000);`);
    await expect(startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9', script: path, timeoutMs: 1500 })).rejects.toMatchObject({ code: 'reference.start-timeout' });
  });

  const main = fileURLToPath(new URL('../reference/main.ts', import.meta.url));
  it.runIf(existsSync(main))('starts the real reference/main.ts and answers on both addresses', async () => {
    const ref = await startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9' });
    try {
      expect(ref.info.gateway.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ref.info.partner.baseUrl).toMatch(/\/v1$/);
      const res = await fetch(`${ref.info.gateway.baseUrl}/api/v1/balance`);
      expect(res.status).toBe(401);
      await res.body?.cancel();
    } finally {
      await ref.stop();
    }
  });
});
