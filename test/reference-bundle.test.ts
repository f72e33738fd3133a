// The bundled reference the system tests' runs start (test/fault-matrix/reference-bundle.ts).
import { describe, expect, test } from 'vitest';
import { request } from 'undici';
import { startEmbeddedReference } from '../harness/config/target.js';
import { referenceBundle } from './fault-matrix/reference-bundle.js';
import { childEnv } from './fault-matrix/runner.js';

describe('the bundled reference', () => {
  test('is built once, and is what the spawned conformance runs start', () => {
    const script = referenceBundle();
    expect(script).toMatch(/reference-bundle\/[0-9a-f]{16}\/reference\/main\.js$/);
    expect(referenceBundle()).toBe(script);
    expect(childEnv()['PAYGATE_REFERENCE_SCRIPT']).toBe(script);
  });

  test('starts, serves both APIs and takes its faults from the environment', async () => {
    const ref = await startEmbeddedReference({ callbackPublicUrl: 'http://127.0.0.1:9', faults: 'gw-auth-wrong-secret-accepted', script: referenceBundle() });
    try {
      expect(ref.info.gateway.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // the fault is live: a wrong secret gets a token
      const auth = await request(`${ref.info.gateway.baseUrl}/api/auth`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${ref.info.gateway.clientId}:wrong`).toString('base64')}` } });
      await auth.body.text();
      expect(auth.statusCode).toBe(200);
      const finance = await request(`${ref.info.partner.baseUrl}/business/finance`);
      await finance.body.text();
      expect(finance.statusCode).toBe(401);
    } finally {
      await ref.stop();
    }
  });
});
