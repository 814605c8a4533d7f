/**
 * The standard normal CDF and quantile, needed by BCa intervals (z0, acceleration) and the Wilcoxon normal
 * approximation. Hand-written rather than a dependency: the maintained packages for these two functions
 * (@stdlib/stats-base-dists-normal-*) pull ~220 packages. Both are classic double-precision algorithms:
 *   - normalCdf: Φ(x) = erfc(−x/√2)/2 with erfc from W. J. Cody, "Rational Chebyshev approximations for the error
 *     function", Math. Comp. 23 (1969) 631–637 (the coefficients of his CALERF routine, relative error < 1e-15).
 *   - normalQuantile: M. J. Wichura, "Algorithm AS 241: The percentage points of the normal distribution",
 *     Applied Statistics 37 (1988) 477–484 (PPND16, about 1e-16 relative accuracy).
 * Checked against scipy.special.ndtr / ndtri in normal.test.ts.
 */

function poly(c: readonly number[], x: number): number {
  let r = 0;
  for (let i = c.length - 1; i >= 0; i--) r = r * x + c[i]!;
  return r;
}

// Cody (1969), CALERF coefficients.
const A = [3.1611237438705656, 113.86415415105016, 377.485237685302, 3209.3775891384694, 0.18577770618460315];
const B = [23.601290952344122, 244.02463793444417, 1282.6165260773723, 2844.236833439171];
const C = [
  0.5641884969886701, 8.883149794388377, 66.11919063714163, 298.635138197400131, 881.952221241769, 1712.0476126340707,
  2051.0783778260716, 1230.3393547979972, 2.1531153547440383e-8,
];
const D = [
  15.744926110709835, 117.6939508913125, 537.1811018620099, 1621.3895745666903, 3290.7992357334597, 4362.619090143247,
  3439.3676741437216, 1230.3393548037495,
];
const P = [
  0.30532663496123236, 0.36034489994980445, 0.12578172611122926, 0.016083785148742275, 6.587491615298378e-4,
  0.016315387137302097,
];
const Q = [2.568520192289822, 1.8729528499234604, 0.5279051029514285, 0.06051834131244132, 0.0023352049762686918];
const SQRPI = 0.5641895835477563; // 1/√π

/** erfc(x) for x ≥ 0 (Cody's three ranges). */
function erfcNonNegative(x: number): number {
  if (x <= 0.46875) {
    const y = x * x;
    let num = A[4]! * y;
    let den = y;
    for (let i = 0; i < 3; i++) {
      num = (num + A[i]!) * y;
      den = (den + B[i]!) * y;
    }
    return 1 - (x * (num + A[3]!)) / (den + B[3]!);
  }
  let r: number;
  if (x <= 4) {
    let num = C[8]! * x;
    let den = x;
    for (let i = 0; i < 7; i++) {
      num = (num + C[i]!) * x;
      den = (den + D[i]!) * x;
    }
    r = (num + C[7]!) / (den + D[7]!);
  } else {
    if (x >= 26.6) return 0;
    const z = 1 / (x * x);
    let num = P[5]! * z;
    let den = z;
    for (let i = 0; i < 4; i++) {
      num = (num + P[i]!) * z;
      den = (den + Q[i]!) * z;
    }
    r = (SQRPI - (z * (num + P[4]!)) / (den + Q[4]!)) / x;
  }
  // exp(-x²) split as exp(-ysq²)·exp(-(x-ysq)(x+ysq)) to keep precision (Cody's trick).
  const ysq = Math.trunc(x * 16) / 16;
  const del = (x - ysq) * (x + ysq);
  return Math.exp(-ysq * ysq) * Math.exp(-del) * r;
}

export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return x >= 0 ? erfcNonNegative(x) : 2 - erfcNonNegative(-x);
}

/** Φ(x), the standard normal CDF. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return 0.5 * erfc(-x / Math.SQRT2);
}

// Wichura (1988), PPND16.
const A1 = [
  3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125, 45921.953931549871457,
  67265.770927008700853, 33430.575583588128105, 2509.0809287301226727,
];
const B1 = [
  1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867, 39307.89580009271061,
  28729.085735721942674, 5226.495278852545925,
];
const C1 = [
  1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504, 1.27045825245236838258,
  0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4,
];
const D1 = [
  1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455, 0.14810397642748007459,
  0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9,
];
const E1 = [
  6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123, 0.026532189526576123093,
  0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7,
];
const F1 = [
  1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525, 7.868691311456132591e-4,
  1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15,
];

/** Φ⁻¹(p); −∞ at 0, +∞ at 1, NaN outside [0, 1]. */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * poly(A1, r)) / poly(B1, r);
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let val: number;
  if (r <= 5) {
    r -= 1.6;
    val = poly(C1, r) / poly(D1, r);
  } else {
    r -= 5;
    val = poly(E1, r) / poly(F1, r);
  }
  return q < 0 ? -val : val;
}
