/**
 * Colours for the console, through `node:util` `styleText`, only where they help (a terminal) and
 * never against the user's wish: NO_COLOR (any value) turns them off, FORCE_COLOR turns them on
 * (FORCE_COLOR=0 off) whatever the stream is.
 */
import { styleText } from 'node:util';

type Format = Parameters<typeof styleText>[0];

/** Whether text written to `stream` gets colours. */
export function colours(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** A painter for one stream: `paint('red', text)`, or the text unchanged when colours are off. */
export function painter(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): (format: Format, text: string) => string {
  if (!colours(stream, env)) return (_format, text) => text;
  // Node 22.13+ checks the stream itself unless told not to; we decided above (Node 20 ignores the option)
  const style = styleText as (format: Format, text: string, options?: { validateStream?: boolean }) => string;
  return (format, text) => style(format, text, { validateStream: false });
}
