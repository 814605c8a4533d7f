/**
 * What the repository's text may cite: only what a clone contains. A comment or page must not name the build
 * workspace's design file (`DESIGN.md`), its source documents (`seeds/`), an issue of the build tracker ("issue 16")
 * or a machine path (`/work/…`, `/home/…`, `/Users/…`); and a section it cites inside the repository — `plan §2.3`,
 * `design.md §2`, `datasets.md §4.1` — must be a section of docs/plan.md, docs/design.md or docs/datasets.md.
 * Used by src/architecture.test.ts on every tracked text file.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface CitationFinding {
  file: string;
  line: number;
  text: string;
  why: string;
}

/** Things that name what a clone does not contain. An upstream issue (`owner/repo#12`, `…/issues/12`) is fine. */
const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /\bDESIGN\.md\b/, why: 'names DESIGN.md, which the repository does not ship (cite docs/design.md)' },
  {
    pattern: /(^|[^\w.-])seeds\/|\bseed `?0\d\d\b/,
    why: 'names the source documents (seeds/), which the repository does not ship (cite docs/plan.md)',
  },
  { pattern: /\bissues? #?\d+\b/i, why: 'names an issue of the build tracker; say what the rule is instead' },
  {
    pattern: /\bhelper session\b|\bLLM coding agent\b/i,
    why: 'says how the build workspace produced the file; say what the file is (and cite docs/plan.md)',
  },
  { pattern: /(^|[\s'"`(])\/(work|home|Users|root)\/\w/, why: 'names a path of one machine' },
];

/** Documents whose numbered sections the code cites, and how a citation names them. */
const SECTION_DOCS: { cite: RegExp; doc: string }[] = [
  { cite: /\bplan §(\d+(?:\.\d+)*)/g, doc: 'docs/plan.md' },
  { cite: /\bdesign\.md §(\d+(?:\.\d+)*)/g, doc: 'docs/design.md' },
  { cite: /\bdatasets\.md §(\d+(?:\.\d+)*)/g, doc: 'docs/datasets.md' },
];

/** The section numbers a Markdown page defines: headings "## §2.3 …", "### 4.1 …" or "## 1. …", and "§5.5" in its text. */
export function sectionsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#+\s+§?(\d+(?:\.\d+)*)\.?\s/gm)) out.add(m[1]!);
  for (const m of markdown.matchAll(/§(\d+(?:\.\d+)*)/g)) out.add(m[1]!.replace(/\.$/, ''));
  return out;
}

/** A line whose issue reference points at an upstream repository rather than the build tracker. */
function upstreamIssue(line: string): boolean {
  return /[\w.-]+\/[\w.-]+(#\d+|\/issues\/\d+|\/pull\/\d+)/.test(line);
}

/** Findings in one file's text; `sections` maps a cited document to its section numbers. */
export function citationFindings(file: string, text: string, sections: Map<string, Set<string>>): CitationFinding[] {
  const out: CitationFinding[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { pattern, why } of FORBIDDEN) {
      if (!pattern.test(line)) continue;
      if (why.startsWith('names an issue') && upstreamIssue(line)) continue;
      out.push({ file, line: i + 1, text: line.trim().slice(0, 120), why });
    }
    for (const { cite, doc } of SECTION_DOCS) {
      for (const m of line.matchAll(cite)) {
        const section = m[1]!.replace(/\.$/, '');
        if (!sections.get(doc)?.has(section)) {
          out.push({
            file,
            line: i + 1,
            text: line.trim().slice(0, 120),
            why: `cites ${doc} §${section}, which it does not have`,
          });
        }
      }
    }
  });
  return out;
}

/** Files of the checkout: git's list, or (a tarball, no git) a walk that leaves out what is never committed. */
export function checkoutFiles(root: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    const skip = new Set(['node_modules', '.git', 'dist', 'results', 'datasets', '.cache', 'calibration-cache']);
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)))
      .filter((f) => !f.split(sep).some((part) => skip.has(part)));
  }
}

/** Binary by content, as git decides: a NUL byte in the first 8,000 bytes. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/**
 * Every tracked text file — code, configs, docs, notebooks, data files (`.jsonl` included) — whatever its extension;
 * binary files (images, ONNX models) and the lock file (generated) are left out. A tracked file missing from the
 * working tree (deleted, not yet committed) is left out too.
 */
export function trackedTextFiles(root: string): string[] {
  return checkoutFiles(root).filter((f) => {
    if (f.endsWith('package-lock.json')) return false;
    if (/\.(png|jpe?g|gif|onnx|bin|gz|zip|duckdb|wasm)$/i.test(f)) return false;
    try {
      return !isBinary(readFileSync(join(root, f)));
    } catch {
      return false;
    }
  });
}

/** Every finding in the repository at `root`; the test file itself quotes what it forbids and is skipped. */
export function repositoryCitationFindings(root: string, skip: ReadonlySet<string>): CitationFinding[] {
  const sections = new Map(SECTION_DOCS.map(({ doc }) => [doc, sectionsOf(readFileSync(join(root, doc), 'utf8'))]));
  return trackedTextFiles(root)
    .filter((f) => !skip.has(f))
    .flatMap((f) => citationFindings(f, readFileSync(join(root, f), 'utf8'), sections));
}
