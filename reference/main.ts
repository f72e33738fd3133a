/**
 * `tsx reference/main.ts [--json]`: runs the reference sandbox (both APIs) until SIGINT/SIGTERM.
 * `--json` prints one line of ReferenceInfo for the suite (docs/ARCHITECTURE.md), and the
 * personality on stderr; otherwise it prints the personality, addresses, credentials and the
 * variables to export to test against it. A mix (REFERENCE_PERSONALITY=mix:SEED) is printed with
 * every choice it drew away from the default, so a run can be reproduced and bisected.
 * `--receiver` runs the reference receiver instead (reference/receiver/main.ts).
 */
import { describePersonality, differencesFromDefault, mixSeed, personality, type Personality } from './personality.js';
import { referenceOptionsFromEnv, startReference, type ReferenceInfo } from './server.js';

function personalityForPeople(chosen: Personality): string[] {
  const head = `personality: ${chosen.name} (REFERENCE_PERSONALITY=default|alt|mix:SEED; reference/DECISIONS.md)`;
  if (mixSeed(chosen.name) === undefined) return [head];
  const drawn = differencesFromDefault(chosen);
  return [head, `  drawn away from the default (${drawn.length}; REFERENCE_PERSONALITY_KEEP=key,… keeps a choice at its default):`, ...drawn.map((d) => `    ${d}`)];
}

function forPeople(info: ReferenceInfo, chosen: Personality): string {
  const g = info.gateway;
  const p = info.partner;
  return [
    'paygate-conformance reference sandbox',
    ...personalityForPeople(chosen),
    '',
    `gateway  ${g.baseUrl}   (POST /api/auth, /api/v1/...)`,
    `  sandbox pair (account A):     ${g.clientId} / ${g.clientSecret}`,
    `  production pair (account A):  ${g.liveClientId} / ${g.liveClientSecret}`,
    `  sandbox pair (account B):     ${g.otherClientId} / ${g.otherClientSecret}`,
    `  split recipient e-mail:       ${g.splitEmail}`,
    `partner  ${p.baseUrl}`,
    `  keys: ${p.apiKey} (test), ${p.liveApiKey} (live), ${p.otherApiKey} (other account)`,
    `  webhook secret: ${p.webhookSecret}`,
    '',
    'To run the suite against it from another shell:',
    `export GATEWAY_BASE_URL=${g.baseUrl}`,
    `export GATEWAY_CLIENT_ID=${g.clientId}`,
    `export GATEWAY_CLIENT_SECRET=${g.clientSecret}`,
    `export GATEWAY_LIVE_CLIENT_ID=${g.liveClientId}`,
    `export GATEWAY_LIVE_CLIENT_SECRET=${g.liveClientSecret}`,
    `export GATEWAY_OTHER_CLIENT_ID=${g.otherClientId}`,
    `export GATEWAY_OTHER_CLIENT_SECRET=${g.otherClientSecret}`,
    `export GATEWAY_SPLIT_EMAIL=${g.splitEmail}`,
    `export PARTNER_BASE_URL=${p.baseUrl}`,
    `export PARTNER_API_KEY=${p.apiKey}`,
    `export PARTNER_LIVE_API_KEY=${p.liveApiKey}`,
    `export PARTNER_OTHER_API_KEY=${p.otherApiKey}`,
    `export PARTNER_WEBHOOK_SECRET=${p.webhookSecret}`,
    '# partner webhooks go to REFERENCE_PARTNER_WEBHOOK_URL (set it to ${CALLBACK_PUBLIC_URL}/partner when starting the reference)',
    '',
    'Ctrl-C stops it.',
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.slice(2).includes('--receiver')) {
    // the reference receiver (a webhook endpoint for suites/receiver/), not the API sandbox
    const { runReceiverMain } = await import('./receiver/main.js');
    return runReceiverMain(process.argv.slice(2));
  }
  const json = process.argv.slice(2).includes('--json');
  const options = referenceOptionsFromEnv();
  const chosen = personality(options.personality, options.personalityKeep);
  const running = await startReference(options);
  if (json) {
    process.stdout.write(`${JSON.stringify(running.info)}\n`);
    process.stderr.write(`reference: ${describePersonality(chosen)}\n`);
  } else {
    process.stdout.write(`${forPeople(running.info, chosen)}\n`);
  }
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('reference: error while stopping', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
