import { describe, expect, it } from 'vitest';
import {
  ensureEnvironmentsShareHost,
  ensureSandboxStateUnchanged,
  ensureSandboxWebhookHidden,
  findListedById,
  judgeForeignAccess,
} from '../harness/rules/gateway/isolation.js';
import { answer, exchange, found } from './rules-gateway-fixtures.js';

describe('judgeForeignAccess', () => {
  it('404 with the NOT_FOUND shape passes for both; 403 passes for production credentials', () => {
    expect(found(judgeForeignAccess(answer(404, { error: 'NOT_FOUND', message: 'x' }), 'other-account', ['GW-ERR-404-OTHER-ACCOUNT'], {}, ['GW-PIXIN-GET-404-SHAPE']))).toEqual([]);
    expect(found(judgeForeignAccess(answer(403, {}), 'production', ['GW-ENV-ISOLATION']))).toEqual([]);
  });
  it('403 warns for another account', () => {
    expect(found(judgeForeignAccess(answer(403, {}), 'other-account', ['GW-ERR-404-OTHER-ACCOUNT']))).toEqual(['warning:isolation.403-for-other-account']);
  });
  it('a 2xx fails, and a 404 without the pinned shape fails', () => {
    expect(found(judgeForeignAccess(answer(200, { data: {} }), 'production', ['GW-ENV-ISOLATION']))).toEqual(['failure:status.unexpected']);
    expect(found(judgeForeignAccess(answer(404, { success: false, message: 'x' }), 'other-account', ['GW-ERR-404-OTHER-ACCOUNT'], {}, ['GW-PIXIN-GET-404-SHAPE'])).length).toBe(1);
  });
});

describe('ensureSandboxStateUnchanged', () => {
  it('passes a pending charge and a processing transfer; fails a paid charge or a completed transfer', () => {
    const c = answer(200, {});
    expect(found(ensureSandboxStateUnchanged({ charge: c, chargeStatus: 'pending', transfer: c, transferStatus: 'banking_processing' }, ['GW-ENV-ISOLATION'], 'x'))).toEqual([]);
    expect(found(ensureSandboxStateUnchanged({ charge: c, chargeStatus: 'paid', transfer: c, transferStatus: 'completed' }, ['GW-ENV-ISOLATION'], 'x'))).toEqual(['failure:isolation.state-changed', 'failure:isolation.state-changed']);
  });
});

describe('ensureSandboxWebhookHidden', () => {
  const hook = { id: 7, url: 'http://127.0.0.1:1/gw/abc' };
  it('passes a list without our webhook (any shape), fails one that shows it', () => {
    expect(found(ensureSandboxWebhookHidden(answer(200, { data: [{ id: 7, url: 'http://elsewhere' }] }), hook))).toEqual([]);
    expect(found(ensureSandboxWebhookHidden(answer(200, { data: { items: [{ id: 7, url: hook.url }] } }), hook))).toEqual(['failure:isolation.webhook-visible']);
  });
  it('findListedById finds nested entries', () => {
    expect(findListedById({ a: { b: [{ id: '7' }] } }, 7)).toEqual({ id: '7' });
    expect(findListedById([], 7)).toBeUndefined();
  });
});

describe('ensureEnvironmentsShareHost', () => {
  it('passes two 200 exchanges at one origin', () => {
    const j = ensureEnvironmentsShareHost(exchange(200, {}, { url: 'http://127.0.0.1:9/api/auth' }), exchange(200, {}, { url: 'http://127.0.0.1:9/api/auth' }));
    expect(found(j)).toEqual([]);
    expect(j.requirements).toContain('GW-ENV-SAME-HOST');
  });
  it('fails a production pair refused at that host, or two hosts', () => {
    expect(found(ensureEnvironmentsShareHost(exchange(200, {}), exchange(401, {})))).toEqual(['failure:status.unexpected']);
    expect(found(ensureEnvironmentsShareHost(exchange(200, {}, { url: 'http://a:1/api/auth' }), exchange(200, {}, { url: 'http://b:1/api/auth' })))).toEqual(['failure:env.different-host']);
  });
});
