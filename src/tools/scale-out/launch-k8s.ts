/**
 * `adaptmr launch k8s`: two `batch/v1` Jobs. The shards Job is an Indexed Job (`completionMode: Indexed`, n
 * completions): pod i runs `adaptmr run --shards n`, whose index comes from JOB_COMPLETION_INDEX (0-based), into
 * `<results>/shard-<i+1>.duckdb` on the shared results volume; a failed pod is retried per index
 * (`backoffLimitPerIndex`) and resumes from its file. Kubernetes has no dependency between Jobs, so `submit.sh`
 * creates the merge Job once `kubectl wait` sees the shards Job complete. The image, the volume claims and the secret
 * holding API keys (passed as environment variables, never written anywhere) are parameters.
 * Fields: https://kubernetes.io/docs/concepts/workloads/controllers/job/ (kubernetes/kubernetes@v1.31.0
 * api/openapi-spec/v3/apis__batch__v1_openapi.json); the tests validate both against that schema.
 */
import type { LaunchPlan } from './launch-plan.ts';

type Manifest = Record<string, unknown>;

const RESULTS_MOUNT = '/results';
const DATA_MOUNT = '/data';

function podSpec(plan: LaunchPlan, container: string, script: string): Manifest {
  const k = plan.k8s;
  const volumes: Manifest[] = [{ name: 'results', persistentVolumeClaim: { claimName: k.resultsClaim } }];
  const mounts: Manifest[] = [{ name: 'results', mountPath: RESULTS_MOUNT }];
  if (k.dataClaim) {
    volumes.push({ name: 'data', persistentVolumeClaim: { claimName: k.dataClaim, readOnly: true } });
    mounts.push({ name: 'data', mountPath: DATA_MOUNT, readOnly: true });
  }
  const env = plan.env.map(([name, value]) => ({ name, value }));
  return {
    restartPolicy: 'Never',
    volumes,
    containers: [
      {
        name: container,
        image: k.image,
        command: ['/bin/sh', '-c', script],
        env,
        ...(k.secret ? { envFrom: [{ secretRef: { name: k.secret } }] } : {}),
        volumeMounts: mounts,
        resources: { requests: { cpu: String(k.cpus) } },
      },
    ],
  };
}

function metadata(plan: LaunchPlan, name: string): Manifest {
  return {
    name,
    labels: { 'app.kubernetes.io/name': 'adaptmr', 'adaptmr/experiment': plan.name },
    ...(plan.k8s.namespace ? { namespace: plan.k8s.namespace } : {}),
  };
}

const sh = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

export function shardsJob(plan: LaunchPlan): Manifest {
  const out = `${sh(plan.results)}/shard-$((JOB_COMPLETION_INDEX + 1)).duckdb`;
  const script = `exec ${plan.adaptmr} run ${sh(plan.experiment)} --shards ${plan.shards} --out ${out} --no-progress`;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(plan, `adaptmr-${plan.name}-shards`),
    spec: {
      completionMode: 'Indexed',
      completions: plan.shards,
      parallelism: plan.shards,
      backoffLimitPerIndex: plan.retries,
      // Bad input (exit 2) and a spent budget (exit 3) fail the index at once: a retry would do the same.
      podFailurePolicy: {
        rules: [{ action: 'FailIndex', onExitCodes: { containerName: 'shard', operator: 'In', values: [2, 3] } }],
      },
      template: { metadata: { labels: { 'adaptmr/experiment': plan.name } }, spec: podSpec(plan, 'shard', script) },
    },
  };
}

export function mergeJob(plan: LaunchPlan): Manifest {
  const files = Array.from({ length: plan.shards }, (_, i) => `${sh(plan.results)}/shard-${i + 1}.duckdb`).join(' ');
  const script = [
    `${plan.adaptmr} merge ${files} --out ${sh(plan.merged)}`,
    `${plan.adaptmr} report ${sh(plan.merged)} --html ${sh(plan.report)}`,
  ].join(' && ');
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(plan, `adaptmr-${plan.name}-merge`),
    spec: { backoffLimit: 1, template: { spec: podSpec(plan, 'merge', script) } },
  };
}

export function submitK8s(plan: LaunchPlan): string {
  const ns = plan.k8s.namespace ? ` -n ${plan.k8s.namespace}` : '';
  return `#!/bin/bash
# Creates the shards Job, waits for it to complete (every index succeeded), then creates the merge Job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kubectl${ns} apply -f "$here/shards-job.yaml"
kubectl${ns} wait --for=condition=complete --timeout=-1s job/adaptmr-${plan.name}-shards
kubectl${ns} apply -f "$here/merge-job.yaml"
`;
}
