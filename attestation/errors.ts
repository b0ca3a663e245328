// Attestation failures carry the spec's names ("Other error names seen").
export type AttestationErrorName =
  'QuoteVerificationFailed' | 'MeasurementMismatch' | 'CertificateExpired' | 'NetworkError';

export class AttestationError extends Error {
  constructor(
    override readonly name: AttestationErrorName,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export const isAttestationError = (err: unknown): err is AttestationError => err instanceof AttestationError;
