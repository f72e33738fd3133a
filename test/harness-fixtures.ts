// Small local HTTP servers for the harness tests (127.0.0.1, ephemeral ports).
import type { Finding, Judgement, RequirementId } from '../harness/rules/finding.js';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void Promise.resolve(handler(req, Buffer.concat(chunks).toString('utf8'), res)).catch((err: unknown) => {
        res.statusCode = 599;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The first finding of a rule's judgement (undefined when the observation conforms): tests of one-finding rules. */
export function found(judgement: Judgement): Finding | undefined {
  return judgement.findings[0];
}

/** Requirement IDs of a fixture spec or a unit test, which need not be in the catalogue. */
export function fixtureIds(...ids: string[]): RequirementId[] {
  return ids as RequirementId[];
}
