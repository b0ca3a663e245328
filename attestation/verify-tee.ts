// The Verifier's check of a COCO quote attached to Evidence. The quote must
// carry, as its report data, the runtime_data the Gateway bound (SHA-256 of
// the signed payload); otherwise `QuoteVerificationFailed`. Reference values,
// when configured, must match (`MeasurementMismatch`). Hardware quote
// signatures (TDX, SNP) need the vendor's collateral: a `QuoteVerifier` for
// them is plugged in by the deployment; the built-in one understands the
// attestation-agent's `sample` attester only, which is not hardware.
import { AttestationError } from './errors.ts';

export interface QuoteCheck {
  /** True only when a hardware root of trust signed the quote. */
  hardware: boolean;
  tee: string;
}

export type QuoteVerifier = (quote: Buffer, runtimeData: string) => Promise<QuoteCheck>;

export interface ReferenceValues {
  /** Accepted `svn` values of the sample attester (or measurements of a hardware verifier). */
  measurements?: string[];
}

/** Report data as the sample attester writes it: runtime_data bytes, base64, maybe zero-padded to 64. */
function reportDataMatches(reportData: string, runtimeData: string): boolean {
  const got = Buffer.from(reportData, 'base64');
  const want = Buffer.from(runtimeData, 'utf8');
  if (got.length < want.length || !got.subarray(0, want.length).equals(want)) return false;
  return got.subarray(want.length).every((b) => b === 0);
}

export function sampleQuoteVerifier(reference: ReferenceValues = {}): QuoteVerifier {
  return (quote, runtimeData) => {
    let parsed: { svn?: unknown; report_data?: unknown };
    try {
      parsed = JSON.parse(quote.toString('utf8')) as typeof parsed;
    } catch {
      return Promise.reject(
        new AttestationError(
          'QuoteVerificationFailed',
          'quote is not a sample-attester quote and no hardware verifier is configured',
        ),
      );
    }
    if (typeof parsed.report_data !== 'string' || !reportDataMatches(parsed.report_data, runtimeData)) {
      return Promise.reject(
        new AttestationError('QuoteVerificationFailed', 'quote report data does not bind this Evidence'),
      );
    }
    if (reference.measurements && !reference.measurements.includes(String(parsed.svn))) {
      return Promise.reject(
        new AttestationError(
          'MeasurementMismatch',
          `svn ${String(parsed.svn)} is not among the reference values`,
        ),
      );
    }
    return Promise.resolve({ hardware: false, tee: 'sample' });
  };
}
