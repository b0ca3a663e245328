// An agent's id is `<namespace>.<name>` (CLARIFICATIONS: agent ids), split
// at the first dot: a namespace is a DNS label and has none. The API parses
// ids from paths and evidence; the operator and the webhook format them for
// the gateway's PLATFORM_AGENT_ID. One rule, Kubernetes' own (decision 101).

export interface AgentName {
  namespace: string;
  name: string;
}

/** One DNS label: lower-case alphanumerics and `-`, alphanumeric at both ends. */
const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const BOUNDED_LABEL = '[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?';
const NAMESPACE_RE = new RegExp(`^${BOUNDED_LABEL}$`);
const NAME_RE = new RegExp(`^${LABEL}(\\.${LABEL})*$`);
const NAME_MAX = 253;

/** A namespace (workspace): a DNS label of at most 63 characters. */
export const NAMESPACE_PATTERN = `^${BOUNDED_LABEL}$`;
/** An agent's name: a DNS subdomain (the 253-character bound is a separate maxLength). */
export const NAME_PATTERN = `^${BOUNDED_LABEL}(\\.${BOUNDED_LABEL})*$`;
/**
 * The id, documented with a name of at most three labels of at most 63
 * characters, so that every id the pattern admits is one `parseAgentId`
 * accepts (a regular expression cannot bound the name's 253 characters apart
 * from the namespace's); longer names still parse.
 */
export const AGENT_ID_PATTERN = `^${BOUNDED_LABEL}\\.${BOUNDED_LABEL}(\\.${BOUNDED_LABEL}){0,2}$`;

/** Whether a namespace and name are what Kubernetes accepts for a namespaced object. */
export function isValidAgentName(namespace: string, name: string): boolean {
  return NAMESPACE_RE.test(namespace) && name.length <= NAME_MAX && NAME_RE.test(name);
}

export function formatAgentId(agent: AgentName): string {
  return `${agent.namespace}.${agent.name}`;
}

/** The id of an agent object (or a pod's agent), from its metadata. */
export function agentIdOf(object: { metadata?: { namespace?: string; name?: string } }): string {
  return formatAgentId({ namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' });
}

/** The namespace and name of an id, or undefined when either is not a valid one. */
export function parseAgentId(id: string): AgentName | undefined {
  const dot = id.indexOf('.');
  if (dot < 1) return undefined;
  const agent = { namespace: id.slice(0, dot), name: id.slice(dot + 1) };
  return isValidAgentName(agent.namespace, agent.name) ? agent : undefined;
}
