// Reads an OCI image configuration (the JSON `application/vnd.oci.image.config.v1+json`
// blob, or what `docker inspect` prints) and checks the auditor image rules on
// it: the io.platform labels and a non-root user. Reusable by the CLI's
// `auditor verify --image-config`.
import { imageRuleProblems } from './dockerfile.ts';

export interface ImageFacts {
  labels: Record<string, string>;
  user?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The image's own config object: OCI `{config}`, or docker inspect's `[{Config}]`. */
function configOf(json: unknown): Obj | undefined {
  const doc = Array.isArray(json) && json.length === 1 ? (json[0] as unknown) : json;
  if (!isObj(doc)) return undefined;
  const config = doc.config ?? doc.Config;
  return isObj(config) ? config : undefined;
}

/** The labels and user of an image configuration; undefined when the JSON is not one. */
export function imageFacts(json: unknown): ImageFacts | undefined {
  const config = configOf(json);
  if (!config) return undefined;
  const raw = isObj(config.Labels) ? config.Labels : {};
  const labels = Object.fromEntries(
    Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return typeof config.User === 'string' && config.User !== '' ? { labels, user: config.User } : { labels };
}

export function imageConfigProblems(json: unknown): string[] {
  const facts = imageFacts(json);
  if (!facts) return ['not an OCI image configuration (no config object with Labels and User)'];
  return imageRuleProblems(facts);
}
