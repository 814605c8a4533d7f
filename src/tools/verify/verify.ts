/**
 * `adaptmr verify <bundle>`: every check in order — signature, file hashes, schema validity, the instance lines and
 * aggregates recomputed from the rows, every statistic recomputed — one line each; the result is the first failure,
 * if any. Reads only the bundle: no network, no API key, no dataset (the content hashes are rolled up from the
 * instance lines) — except `--rerun`, which reads the datasets to compute the offline runs again.
 */
import type { PublicKeyInfo } from '../bundle/sign.ts';
import { Checks } from './checks.ts';
import { checkEee } from './eee-check.ts';
import { checkFiles, checkSignature, readManifest } from './integrity.ts';
import { recompute } from './recompute.ts';
import { checkSubmission } from './submission.ts';
import { rerunBundle } from './rerun.ts';

export interface VerifyOptions {
  publicKey?: PublicKeyInfo | undefined;
  print?: (line: string) => void;
  submission?: boolean;
  rerun?: boolean;
  /** Where the datasets are, for `rerun`. */
  dataDir?: string | undefined;
  /** `rerun` on this checkout even when it is not the run's commit (said on the check's line). */
  anyCommit?: boolean;
}

export async function verifyBundle(dir: string, opts: VerifyOptions = {}): Promise<Checks> {
  const checks = new Checks(opts.print ?? ((l) => console.log(l)));
  const m = readManifest(dir);
  checkSignature(dir, m, checks, opts.publicKey);
  checkFiles(dir, m.manifest, checks);
  const eee = checkEee(dir, m.manifest, checks);
  await recompute(dir, m.manifest, eee, checks);
  if (opts.submission) checkSubmission(m.manifest, eee, checks);
  if (opts.rerun) await rerunBundle(dir, checks, opts.dataDir, opts.anyCommit === true);
  return checks;
}
