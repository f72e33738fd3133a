/**
 * `npm run reference -- --receiver [--port N] [--faults a,b]` (or `tsx reference/receiver/main.ts`):
 * runs the reference receiver until SIGINT/SIGTERM and prints how to point the receiver suite at it.
 * Secret: REFERENCE_RECEIVER_SECRET (default `whsec_reference_receiver`); faults also from
 * REFERENCE_RECEIVER_FAULTS; `--json` prints one line { url, secret, faults } for scripts.
 */
import { parseArgs } from 'node:util';
import { startReferenceReceiver } from './server.js';

export interface ReceiverMainOptions {
  json?: boolean;
  port?: string;
  faults?: string;
}

export async function runReceiverMain(options: ReceiverMainOptions): Promise<void> {
  const secret = process.env['REFERENCE_RECEIVER_SECRET'] ?? 'whsec_reference_receiver';
  const faults = options.faults ?? process.env['REFERENCE_RECEIVER_FAULTS'];
  const port = Number(options.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port expects a port number, got "${options.port ?? ''}"`);
  const slow = process.env['REFERENCE_RECEIVER_SLOW_MS'];
  const running = await startReferenceReceiver({
    secret,
    port,
    ...(faults !== undefined && { faults }),
    ...(slow !== undefined && { slowMs: Number(slow) }),
  });
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ url: running.url, secret, faults: [...running.faults] })}\n`);
  } else {
    process.stdout.write(
      [
        `paygate-conformance reference receiver at ${running.url}${running.faults.size > 0 ? ` (faults: ${[...running.faults].join(', ')})` : ''}`,
        '',
        'Test it from another shell:',
        `RECEIVER_SIGNATURE_SECRET=${secret} RECEIVER_STATE_URL=${running.stateUrl('partner')} \\`,
        `  npm run conformance -- --receiver-url ${running.endpoint('partner')} --receiver-scheme partner`,
        `(gateway: ${running.endpoint('gateway')}, state ${running.stateUrl('gateway')})`,
        '',
        'Ctrl-C stops it.',
        '',
      ].join('\n'),
    );
  }
  const shutdown = (): void => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (process.argv[1] !== undefined && /receiver[\\/]main\.[jt]s$/.test(process.argv[1])) {
  const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--'), options: { json: { type: 'boolean' }, port: { type: 'string' }, faults: { type: 'string' } }, strict: true });
  runReceiverMain({ json: values.json === true, ...(values.port !== undefined && { port: values.port }), ...(values.faults !== undefined && { faults: values.faults }) }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
