/**
 * Fitting the rules classifier's calibration map (src/classify/calibration.ts) on labelled calibration questions,
 * by minimising the mean negative log-likelihood of the gold types:
 * - `temperature`: β and the default prior π by grid search (β ∈ 0.05…5, π ∈ 0…3), then a finer grid around the
 *   best cell — two parameters, so a grid is exact enough and needs no gradients;
 * - `matrix`: W (5×6) and b (5) by full-batch Adam (Kingma & Ba 2015) from zero, fixed iterations, L2 on W —
 *   deterministic (no sampling), so the same split gives the same file.
 */
import { ADAPT_TYPES, type AdaptType } from '../../../core/types.ts';
import {
  applyCalibration,
  calibrationFeatures,
  softmax,
  type CalibrationParams,
} from '../../../classify/calibration.ts';

export interface CalibrationExample {
  /** The rules' raw cue counts. */
  scores: Record<AdaptType, number>;
  gold: AdaptType;
}

export function meanNll(params: CalibrationParams, data: readonly CalibrationExample[]): number {
  let s = 0;
  for (const d of data)
    s -= Math.log(Math.max(1e-12, applyCalibration(params, d.scores)[ADAPT_TYPES.indexOf(d.gold)] ?? 0));
  return s / Math.max(1, data.length);
}

const range = (from: number, to: number, step: number): number[] => {
  const out: number[] = [];
  for (let x = from; x <= to + 1e-9; x += step) out.push(Number(x.toFixed(6)));
  return out;
};

export function fitTemperature(
  data: readonly CalibrationExample[],
  defaultType: AdaptType = 'factual',
): CalibrationParams {
  let best: CalibrationParams = { method: 'temperature', beta: 1.5, defaultPrior: 0.5, defaultType };
  let bestNll = meanNll(best, data);
  const search = (betas: number[], priors: number[]) => {
    for (const beta of betas) {
      if (beta <= 0) continue;
      for (const defaultPrior of priors) {
        if (defaultPrior < 0) continue;
        const p: CalibrationParams = { method: 'temperature', beta, defaultPrior, defaultType };
        const nll = meanNll(p, data);
        if (nll < bestNll - 1e-12) {
          best = p;
          bestNll = nll;
        }
      }
    }
  };
  search(range(0.05, 5, 0.05), range(0, 3, 0.05));
  if (best.method === 'temperature') {
    const { beta, defaultPrior } = best;
    search(range(beta - 0.05, beta + 0.05, 0.005), range(defaultPrior - 0.05, defaultPrior + 0.05, 0.005));
  }
  return best;
}

export interface MatrixFitOptions {
  l2: number;
  iterations: number;
  learningRate: number;
}

export const DEFAULT_MATRIX_FIT: MatrixFitOptions = { l2: 1e-2, iterations: 3000, learningRate: 0.05 };

export function fitMatrix(
  data: readonly CalibrationExample[],
  opts: MatrixFitOptions = DEFAULT_MATRIX_FIT,
): CalibrationParams {
  const K = ADAPT_TYPES.length;
  const F = 6;
  const xs = data.map((d) => calibrationFeatures(d.scores));
  const ys = data.map((d) => ADAPT_TYPES.indexOf(d.gold));
  const P = K * F + K; // W row-major, then b
  const theta = new Float64Array(P);
  const m = new Float64Array(P);
  const v = new Float64Array(P);
  const n = Math.max(1, data.length);
  for (let step = 1; step <= opts.iterations; step++) {
    const grad = new Float64Array(P);
    xs.forEach((x, i) => {
      const logits = Array.from({ length: K }, (_, k) =>
        x.reduce((acc, xj, j) => acc + (theta[k * F + j] ?? 0) * xj, theta[K * F + k] ?? 0),
      );
      const p = softmax(logits);
      for (let k = 0; k < K; k++) {
        const g = ((p[k] ?? 0) - (k === ys[i] ? 1 : 0)) / n;
        grad[K * F + k] = (grad[K * F + k] ?? 0) + g;
        for (let j = 0; j < F; j++) grad[k * F + j] = (grad[k * F + j] ?? 0) + g * (x[j] ?? 0);
      }
    });
    const c1 = 1 - 0.9 ** step;
    const c2 = 1 - 0.999 ** step;
    for (let q = 0; q < P; q++) {
      const g = (grad[q] ?? 0) + (q < K * F ? opts.l2 * (theta[q] ?? 0) : 0);
      m[q] = 0.9 * (m[q] ?? 0) + 0.1 * g;
      v[q] = 0.999 * (v[q] ?? 0) + 0.001 * g * g;
      theta[q] = (theta[q] ?? 0) - (opts.learningRate * ((m[q] ?? 0) / c1)) / (Math.sqrt((v[q] ?? 0) / c2) + 1e-8);
    }
  }
  const round = (x: number) => Number(x.toFixed(6));
  return {
    method: 'matrix',
    weights: Array.from({ length: K }, (_, k) => Array.from({ length: F }, (_, j) => round(theta[k * F + j] ?? 0))),
    bias: Array.from({ length: K }, (_, k) => round(theta[K * F + k] ?? 0)),
    l2: opts.l2,
  };
}
