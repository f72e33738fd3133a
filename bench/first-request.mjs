// Preloaded into every process of a bench run (NODE_OPTIONS=--import): the embedded reference
// appends the time of the first request it receives to PAYGATE_BENCH_FIRST_REQUEST (ms since epoch).
// Plain JavaScript: it loads before the TypeScript loader.
import { channel } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const file = process.env.PAYGATE_BENCH_FIRST_REQUEST;
if (file && /reference[\\/]main\.[jt]s$/.test(process.argv[1] ?? '')) {
  const requests = channel('http.server.request.start');
  const first = () => {
    requests.unsubscribe(first);
    appendFileSync(file, `${Date.now()}\n`);
  };
  requests.subscribe(first);
}
