// The Attestation Agent interface the Gateway signs Evidence through.
// MOCK signs with a local key and says `hardware_attested: false`. COCO signs
// with the same kind of local key and binds the hash of the signed payload
// into a TEE quote from the Confidential Containers attestation-agent (the
// attestation-agent does not sign arbitrary data; runtime_data binds it).
import { createHash } from 'node:crypto';
import { CocoClient, type CocoClientOptions } from './coco.ts';
import { KeyRing } from './keys.ts';

export const TEE_PROVIDERS = ['MOCK', 'COCO'] as const;
export type TeeProvider = (typeof TEE_PROVIDERS)[number];

/** What the Evidence says about how it is signed; part of the signed payload. */
export interface AttestationBinding {
  provider: TeeProvider;
  key_id: string;
  /** Raw Ed25519 public key, base64url. */
  public_key: string;
  hardware_attested: boolean;
}

export interface AttestationOutput {
  signature: string;
  /** COCO: the attestation-agent's evidence (base64) over `runtime_data` = SHA-256(payload), base64url. */
  tee_evidence?: string;
}

export interface AttestationAgent {
  readonly provider: TeeProvider;
  readonly keys: KeyRing;
  binding(): AttestationBinding;
  attest(payload: Buffer): Promise<AttestationOutput>;
}

/** The runtime_data a COCO quote carries for `payload`: SHA-256, base64url (43 characters, under the 64-byte limit). */
export function runtimeDataOf(payload: Buffer): string {
  return createHash('sha256').update(payload).digest('base64url');
}

class MockAgent implements AttestationAgent {
  readonly provider = 'MOCK' as const;
  constructor(readonly keys: KeyRing) {}
  binding(): AttestationBinding {
    const k = this.keys.active();
    return { provider: 'MOCK', key_id: k.keyId, public_key: k.publicKey, hardware_attested: false };
  }
  attest(payload: Buffer): Promise<AttestationOutput> {
    return Promise.resolve({ signature: this.keys.sign(payload) });
  }
}

class CocoAgent implements AttestationAgent {
  readonly provider = 'COCO' as const;
  constructor(
    readonly keys: KeyRing,
    private readonly client: CocoClient,
  ) {}
  binding(): AttestationBinding {
    const k = this.keys.active();
    return { provider: 'COCO', key_id: k.keyId, public_key: k.publicKey, hardware_attested: true };
  }
  async attest(payload: Buffer): Promise<AttestationOutput> {
    const evidence = await this.client.evidence(runtimeDataOf(payload));
    return { signature: this.keys.sign(payload), tee_evidence: evidence.toString('base64') };
  }
}

export interface AgentOptions {
  provider: TeeProvider;
  /** Key file; in memory when absent. */
  keyFile?: string;
  coco?: CocoClientOptions;
}

export function createAttestationAgent(options: AgentOptions): AttestationAgent {
  const keys = new KeyRing(options.keyFile);
  if (options.provider === 'COCO') return new CocoAgent(keys, new CocoClient(options.coco ?? {}));
  return new MockAgent(keys);
}
