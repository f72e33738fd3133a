/**
 * The idempotency fingerprint of `POST /api/v1/pix/out/pixkey` (gateway-api.md): "Resending with the
 * same key and body returns the original response and never duplicates the transfer. The same key
 * with a different body gives 409 (`IDEMPOTENCY_CONFLICT`)." Every field of the request schema is
 * tried alone (harness/rules/gateway/idempotency.ts derives the cells from the spec). Transfers are
 * created with the sandbox pair and never completed: creating one needs no balance.
 */
import { randomUUID } from 'node:crypto';
import { check } from '../../harness/run/check.js';
import type { TransferRequest } from '../../harness/http/gateway-client.js';
import { fingerprintProbe } from '../../harness/rules/fingerprint.js';
import { honourTransferRequest } from '../../harness/rules/gateway/pix-transfers.js';
import { honourTransferFingerprint, TRANSFER_FINGERPRINT } from '../../harness/rules/gateway/idempotency.js';
import { dataOf, is2xx } from './webhook-steps.js';

const AREA = 'PIX transfers';

check('the idempotency fingerprint covers every request field: each changed alone under a used key gives 409', {
  id: 'gateway.pixout.idempotency-fingerprint', api: 'gateway', area: AREA, severity: 'critical',
  rules: [honourTransferRequest, honourTransferFingerprint],
}, async (t) => {
  const gw = t.gateway();
  const amount = 200 + Math.floor(Math.random() * 5_000);
  const full: TransferRequest = { pixKey: randomUUID(), amount, currency: 'BRL', description: 'fingerprint full', postbackUrl: t.callbackUrl(`/fingerprint/${randomUUID()}`) };
  const other = { pixKey: randomUUID(), amount: amount + 1, description: 'fingerprint other', postbackUrl: t.callbackUrl(`/fingerprint/${randomUUID()}`) };
  const minimal: TransferRequest = { pixKey: randomUUID(), amount };
  const keys = { full: randomUUID(), minimal: randomUUID() };
  const bases = { full, minimal } as const;
  const [first, firstMinimal] = await t.all(['full', 'minimal'] as const, (which) => gw.createTransfer(bases[which], { idempotencyKey: keys[which] }));
  const originals = { full: first!, minimal: firstMinimal! };
  const probes = TRANSFER_FINGERPRINT.cells.map((cell) => ({ cell, ...fingerprintProbe(cell, { full: { ...full }, other, minimal: { ...minimal } }) }));
  // every first use answered: the cells of one key are independent of each other, so they go together
  const usable = (['full', 'minimal'] as const).filter((which) => is2xx(originals[which]) && typeof dataOf(originals[which])?.id === 'string');
  const sent = probes.filter((p) => usable.includes(p.on));
  const answers = await t.all(sent, (p) =>
    p.raw !== undefined ? gw.createTransfer(undefined, { idempotencyKey: keys[p.on], rawBody: p.raw, contentType: 'application/json' }) : gw.createTransfer(p.body, { idempotencyKey: keys[p.on] }),
  );
  for (const which of ['full', 'minimal'] as const) t.judge(honourTransferRequest, { case: 'valid', body: bases[which], answer: originals[which] });
  const chose: string[] = [];
  sent.forEach((p, i) => {
    const answer = answers[i]!;
    const original = originals[p.on];
    t.judge(honourTransferFingerprint, { cell: p.cell.cell, expect: p.cell.expect, body: p.body ?? full, original, originalId: dataOf(original)?.id as string, answer });
    if (p.cell.expect === 'equivalent') chose.push(`${p.cell.cell}: HTTP ${answer.status}${is2xx(answer) ? ' (treated as the same body)' : answer.status === 409 ? ' (treated as another body)' : ''}`);
  });
  if (chose.length > 0) t.run.note(`where "the same body" is open: ${chose.join('; ')}`);
  const skipped = probes.filter((p) => !usable.includes(p.on)).map((p) => p.cell.cell);
  if (skipped.length > 0) t.run.note(`not tried, the first use of their key created no transfer: ${skipped.join(', ')}`);
});
