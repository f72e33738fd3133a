/**
 * `npm run reference -- --receiver [--port N] [--faults a,b]` (or `tsx reference/receiver/main.ts`):
 * runs the reference receiver until SIGINT/SIGTERM and prints how to point the receiver suite at it.
 * Secret: REFERENCE_RECEIVER_SECRET (default `whsec_reference_receiver`); faults also from
 * REFERENCE_RECEIVER_FAULTS; `--json` prints one line { url, secret, faults } for scripts.
 */
import { startReferenceReceiver } from './server.js';

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

export async function runReceiverMain(args: readonly string[]): Promise<void> {
  const secret = process.env['REFERENCE_RECEIVER_SECRET'] ?? 'whsec_reference_receiver';
  const faults = flag(args, '--faults') ?? process.env['REFERENCE_RECEIVER_FAULTS'];
  const slow = process.env['REFERENCE_RECEIVER_SLOW_MS'];
  const running = await startReferenceReceiver({
    secret,
    port: Number(flag(args, '--port') ?? 0),
    ...(faults !== undefined && { faults }),
    ...(slow !== undefined && { slowMs: Number(slow) }),
  });
  if (args.includes('--json')) {
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
  runReceiverMain(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
