// reference/server.ts: both APIs on their own ports, ReferenceInfo as docs/ARCHITECTURE.md shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOptionsFromEnv, startReference, type RunningReference } from '../reference/server.js';

let reference: RunningReference;

beforeAll(async () => {
  reference = await startReference({ host: '127.0.0.1', gatewayPort: 0, partnerPort: 0, faults: new Set() });
});
afterAll(() => reference.close());

describe('startReference', () => {
  it('reports both APIs with every credential', () => {
    const { gateway, partner } = reference.info;
    expect(gateway.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(partner.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    for (const value of Object.values(gateway)) expect(value).toEqual(expect.any(String));
    expect(partner.apiKey.startsWith('ak_test_')).toBe(true);
    expect(partner.liveApiKey.startsWith('ak_live_')).toBe(true);
    expect(partner.otherApiKey.startsWith('ak_test_')).toBe(true);
    expect(partner.webhookSecret.length).toBeGreaterThan(0);
  });

  it('serves the gateway on its port', async () => {
    const { gateway } = reference.info;
    const auth = await fetch(`${gateway.baseUrl}/api/auth`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${gateway.clientId}:${gateway.clientSecret}`).toString('base64')}` },
    });
    expect(auth.status).toBe(200);
    const { token } = (await auth.json()) as { token: string };
    const balance = await fetch(`${gateway.baseUrl}/api/v1/balance`, { headers: { authorization: `Bearer ${token}` } });
    expect(balance.status).toBe(200);
  });

  it('serves the partner API under /v1 on the other port', async () => {
    const { partner } = reference.info;
    const reply = await fetch(`${partner.baseUrl}/business/finance`, { headers: { authorization: `Bearer ${partner.apiKey}` } });
    expect(reply.status).toBeLessThan(500);
    expect(reply.headers.get('content-type') ?? '').toContain('json');
  });

  it('refuses unknown fault names', async () => {
    await expect(startReference({ faults: new Set(['gw-no-such-fault']) })).rejects.toThrow(/unknown fault/);
    expect(() => referenceOptionsFromEnv({ REFERENCE_FAULTS: 'gw-typo' })).toThrow(/unknown fault/);
  });

  it('reads the documented defaults from the environment', () => {
    const options = referenceOptionsFromEnv({ REFERENCE_TOKEN_TTL_MS: '1500', REFERENCE_FAULTS: 'gw-balance-as-number' });
    expect(options).toMatchObject({ host: '127.0.0.1', gatewayPort: 0, partnerPort: 0, tokenTtlMs: 1500, partnerRetryBaseMs: 1_000, partnerRetryCapMs: 300_000, partnerDeliveryTimeoutMs: 10_000, partnerExpiryScale: 1, chaos: false });
    expect([...options.faults]).toEqual(['gw-balance-as-number']);
  });
});
