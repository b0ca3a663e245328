// What the webhook injects into a pod: ports, container names, the sidecars'
// user and resources (spec: Cluster webhooks; CLARIFICATIONS: Pod wiring).
// Labels, annotations and object names shared with other roles are in contract/.
import { DEFAULT_CHAIN_IDS, SYSTEM_AUDITOR_IDS } from '../auditors/builtin.ts';

/** From the built-in auditor table (`auditors/builtin.ts`). */
export const SYSTEM_AUDITORS = SYSTEM_AUDITOR_IDS;
export const DEFAULT_CHAIN = DEFAULT_CHAIN_IDS;

export const PORT = {
  gateway: 8099,
  credentialProxy: 8088,
  mcpGateway: 8100,
  builtinFirst: 8090,
  builtinLast: 8098,
  thirdPartyFirst: 8101,
  thirdPartyLast: 8199,
  thirdPartyDefault: 8080,
} as const;

/** UID every injected sidecar runs as; the redirect rules exempt it (as Istio exempts 1337). */
export const SIDECAR_UID = 1337;

export const CONTAINER = {
  init: 'platform-init',
  gateway: 'platform-gateway',
  credentialProxy: 'platform-credential-proxy',
  auditorPrefix: 'auditor-',
} as const;

export const SIDECAR_RESOURCES = {
  requests: { memory: '128Mi', cpu: '100m' },
  limits: { memory: '256Mi', cpu: '500m' },
} as const;

export const DEFAULT_SESSION_ID = 'demo-session';
