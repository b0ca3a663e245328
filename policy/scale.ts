// Cedar compares integers only: decimals are scaled ×1000 and rounded half
// away from zero (CLARIFICATIONS "Cedar scaling"). The rounding works on the
// number's shortest decimal form, so 1.0005 scales to 1001 although its
// binary value is a hair below 1.0005.

export const CEDAR_SCALE = 1000;

const MAX_EXACT = Math.floor(Number.MAX_SAFE_INTEGER / CEDAR_SCALE);
const MEMO_LIMIT = 4096;
const memo = new Map<number, number>();

/** `0.8` → `800`, `0.0005` → `1`, `-0.0005` → `-1`. Throws on NaN and infinities. */
export function scaleDecimal(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`cannot scale ${String(x)} for Cedar`);
  // Whole numbers scale exactly (`|| 0` turns -0 into 0); claims repeat the same few scores.
  if (Number.isSafeInteger(x) && Math.abs(x) <= MAX_EXACT) return x * CEDAR_SCALE || 0;
  const known = memo.get(x);
  if (known !== undefined) return known;
  const scaled = scaleByDigits(x);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(x, scaled);
  return scaled;
}

/** The digits before the scaled decimal point, and the first digit after it (the rounding digit). */
function splitAtPoint(digits: string, point: number): { kept: string; next: string } {
  if (point <= 0) return { kept: '', next: point === 0 ? (digits[0] ?? '0') : '0' };
  if (point >= digits.length) return { kept: digits + '0'.repeat(point - digits.length), next: '0' };
  return { kept: digits.slice(0, point), next: digits[point] ?? '0' };
}

function scaleByDigits(x: number): number {
  const [mantissa = '0', exponent = '0'] = String(Math.abs(x)).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponent) + Math.log10(CEDAR_SCALE);
  const { kept, next } = splitAtPoint(digits, point);
  const magnitude = Number(kept || '0') + (next >= '5' ? 1 : 0);
  return x < 0 && magnitude !== 0 ? -magnitude : magnitude;
}
