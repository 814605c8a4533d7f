/** The doctor's table: one row per endpoint, then one line per failure saying what to check. */
import Table from 'cli-table3';
import type { EndpointCheck } from '../../core/interfaces.ts';
import { redactSecrets } from '../../core/secrets.ts';

export function formatChecks(checks: readonly EndpointCheck[]): string {
  if (checks.length === 0) return 'this experiment uses no network endpoint (offline methods, local embedder)';
  const table = new Table({
    head: ['status', 'used by', 'url', 'detail'],
    style: { head: [], border: [], compact: true },
    wordWrap: true,
    colWidths: [8, 34, 40, 60],
  });
  for (const c of checks) table.push([c.ok ? 'ok' : 'FAIL', c.user, c.url, c.detail]);
  const failed = checks.filter((c) => !c.ok);
  const tail =
    failed.length === 0
      ? 'all endpoints reachable'
      : failed.map((c) => `FAIL ${c.user} at ${c.url}: ${c.detail}`).join('\n');
  // Every cell may quote a URL or a server's words: credentials and keys are redacted from the whole table.
  return redactSecrets(`${table.toString()}\n${tail}`);
}
