// The project `platform auditor init <name>` writes: a working auditor on the
// SDK (a keyword watch with a vocabulary, claims and a settings schema), the
// entry point that serves it, a Dockerfile that meets the image rules (the
// io.platform labels, a non-root user) and a README. Pure: file name →
// content. The project depends on this checkout by `file:` (decision 195).

export interface ScaffoldInput {
  /** The auditor id: lower-case letters, digits and hyphens. */
  name: string;
  /** Absolute path of the platform checkout the project depends on. */
  platformDir: string;
}

/** The id rule of a registration (`auditor_id`), which the scaffold's id must pass. */
export const AUDITOR_ID_RE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Why `name` cannot be an auditor id ('' when it can). */
export function auditorNameProblem(name: string): string {
  if (!AUDITOR_ID_RE.test(name))
    return `'${name}' is not a valid auditor id: use 1–63 lower-case letters, digits and hyphens, starting and ending with a letter or digit`;
  if (!/^[a-z]/.test(name)) return `'${name}' must start with a letter (its claims are named after it)`;
  return '';
}

/** `keyword-watch` → `keyword_watch`: the claim-name prefix (claim names are snake_case). */
export const claimPrefix = (name: string): string => name.replace(/-/g, '_');

/** `keyword-watch` → `Keyword watch`. */
export const displayName = (name: string): string => {
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function packageJson({ name, platformDir }: ScaffoldInput): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: `${displayName(name)}: an auditor for the agent platform`,
    main: 'src/main.ts',
    scripts: {
      dev: 'platform auditor dev .',
      test: 'platform auditor test .',
      start: 'platform auditor dev . --no-watch --port 8080',
    },
    dependencies: { 'agent-platform-operator': `file:${platformDir}` },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2023"],
    "types": ["node"],
    "typeRoots": ["./node_modules/agent-platform-operator/node_modules/@types"],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["src"]
}
`;

/** src/auditor.ts, with __ID__, __PREFIX__, __ENV__ and __TITLE__ to fill in. */
const AUDITOR_TS = `// The __ID__ auditor: the claims it makes (its vocabulary), the settings
// that shape them, and its audit function. An auditor observes and reports;
// the gateway's policy decides what happens with a request.
//
// This one watches for keywords: it reports which of the watched keywords a
// request (or a response) contains, a score that grows with each match, and
// whether the score reaches the threshold. Replace the audit function with
// your own analysis; keep the vocabulary in step with what it returns.
import type {
  AuditContext,
  AuditorCatalogEntry,
  AuditorDefinition,
  Claim,
  ClaimsRequest,
  SettingDeclaration,
} from 'agent-platform-operator/auditors/sdk/types.ts';
import { CLAIM_VALUES, vocabularyEntry } from 'agent-platform-operator/auditors/sdk/vocabulary.ts';

export const AUDITOR_ID = '__ID__';
export const VERSION = '0.1.0';

/** Claim names: snake_case, dotted groups allowed. */
export const CLAIMS = {
  detected: '__PREFIX___detected',
  score: '__PREFIX___score',
  matches: '__PREFIX__.matches',
} as const;

/**
 * The settings (snake_case keys). A policy overrides them per claim
 * (detection overrides); the environment sets their defaults as
 * __ENV___<KEY>, e.g. __ENV___THRESHOLD=0.7.
 */
const SETTINGS = {
  keywords: {
    key: 'keywords',
    type: 'string[]',
    default: ['password', 'api key', 'secret token', 'credit card number'],
  },
  threshold: { key: 'threshold', type: 'number', default: 0.5 },
} satisfies Record<string, SettingDeclaration>;

export const VOCABULARY = [
  vocabularyEntry(CLAIMS.detected, CLAIM_VALUES.bool, 'The keyword score is at or above the threshold.', [
    SETTINGS.keywords,
    SETTINGS.threshold,
  ]),
  vocabularyEntry(
    CLAIMS.score,
    CLAIM_VALUES.score,
    'Keyword score: 0 without a match, 0.5 for one, 0.75 for two, and so on toward 1.',
    [SETTINGS.keywords],
  ),
  vocabularyEntry(CLAIMS.matches, CLAIM_VALUES.list, 'The watched keywords found, lower-case.', [
    SETTINGS.keywords,
  ]),
];

/** What the console shows: the claims with their settings as form controls. */
const CATALOG: AuditorCatalogEntry = {
  id: AUDITOR_ID,
  name: '__TITLE__',
  description: 'Reports the watched keywords a request or response contains.',
  category: 'security',
  phase: 'input_guarding',
  icon: 'search',
  color: '#2563eb',
  defaultPort: 8080,
  envVariables: [
    { name: 'PLATFORM_GATEWAY_URL', description: 'Gateway the auditor registers with', required: true },
    { name: 'TEE_PROVIDER', description: 'COCO or MOCK', required: true },
    { name: 'PORT', description: 'Listen port', default: '8080' },
    { name: '__ENV___THRESHOLD', description: 'Default threshold', default: '0.5' },
  ],
  policyOptions: [],
  defaultPolicy: { rules: [], enforcementMode: 'observe' },
  claims: VOCABULARY.map((v) => ({
    name: v.name,
    type: v.type,
    description: v.description,
    settings: (v.settings ?? []).map((s) => ({
      ...s,
      label: s.key === 'threshold' ? 'Threshold' : 'Watched keywords',
      ...(s.key === 'threshold'
        ? { min: 0, max: 1, step: 0.05, control: 'slider' }
        : { control: 'tags' }),
    })),
  })),
};

/** The text a phase is about: the model's answer in the response phase, else the request. */
function textOf(request: ClaimsRequest): string {
  return (request.phase === 'response' ? request.data.output : request.data.input) ?? '';
}

function audit(request: ClaimsRequest, context: AuditContext): Claim[] {
  const text = textOf(request).toLowerCase();
  const keywords = context.setting<string[]>(CLAIMS.matches, 'keywords') ?? [];
  const matches = keywords
    .map((k) => k.trim().toLowerCase())
    .filter((k) => k !== '' && text.includes(k));
  const score = 1 - 0.5 ** matches.length;
  const threshold = context.setting<number>(CLAIMS.detected, 'threshold');
  return [
    { name: CLAIMS.detected, type: 'boolean', value: score >= threshold },
    { name: CLAIMS.score, type: 'score_normalized', value: score },
    { name: CLAIMS.matches, type: 'string_list', value: matches },
  ];
}

export const auditor: AuditorDefinition = {
  id: AUDITOR_ID,
  version: VERSION,
  defaultPort: 8080,
  phases: ['request', 'response'],
  vocabulary: VOCABULARY,
  catalog: CATALOG,
  audit,
};
`;

/** `template` with each `__KEY__` replaced by its value. */
export const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/__([A-Z]+)__/g, (m, key: string) => values[key] ?? m);

function auditorSource({ name }: ScaffoldInput): string {
  const prefix = claimPrefix(name);
  return fill(AUDITOR_TS, { ID: name, PREFIX: prefix, ENV: prefix.toUpperCase(), TITLE: displayName(name) });
}

const MAIN = `// Serves the auditor over the auditor contract (GET /health, GET /vocabulary,
// POST /claims, POST /batch, GET /metrics) until SIGTERM or SIGINT.
// Environment: PORT (8080), PLATFORM_GATEWAY_URL and TEE_PROVIDER (required),
// PLATFORM_AUDITOR_REGISTER=false to skip registering with the gateway.
import { serveAuditor } from 'agent-platform-operator/auditors/sdk/serve.ts';
import { createLifecycle } from 'agent-platform-operator/base/lifecycle.ts';
import { createLogger } from 'agent-platform-operator/base/log.ts';
import { auditor } from './auditor.ts';

const log = createLogger(auditor.id);
const lifecycle = createLifecycle(log);
try {
  await serveAuditor(auditor, { log, lifecycle, flags: {}, env: process.env });
} catch (err) {
  // A bad setting or definition: every problem on stderr, exit 2.
  process.stderr.write(\`\${auditor.id}: \${(err as Error).message}\\n\`);
  process.exit(2);
}
await lifecycle.stopped;
process.exit(0);
`;

function dockerfile({ name }: ScaffoldInput): string {
  return `# syntax=docker/dockerfile:1
# The ${name} auditor image. The SDK comes from the platform checkout, given as
# the named build context "platform":
#   docker build --build-context platform=<platform checkout> -t ${name}:0.1.0 .
# Node 24 runs the TypeScript sources as they are (--experimental-transform-types).
ARG NODE_VERSION=24

FROM node:\${NODE_VERSION}-bookworm-slim AS platform
WORKDIR /platform
COPY --from=platform package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts
COPY --from=platform contract ./contract
COPY --from=platform base ./base
COPY --from=platform auditors/sdk ./auditors/sdk

FROM node:\${NODE_VERSION}-bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="${name}" \\
      org.opencontainers.image.version="\${VERSION}" \\
      io.platform.auditor="true" \\
      io.platform.schema_version="2.0" \\
      io.platform.phase="request" \\
      io.platform.interfaces="health,claims,vocabulary"
ENV NODE_ENV=production PORT=8080
COPY --from=platform --chown=root:root /platform /platform
WORKDIR /auditor
COPY --chown=root:root package.json ./
COPY --chown=root:root src ./src
RUN mkdir node_modules && ln -s /platform node_modules/agent-platform-operator
# A numeric non-root user (the image's node user), so runAsNonRoot can check it.
USER 1000:1000
EXPOSE 8080
ENTRYPOINT ["node", "--experimental-transform-types", "--disable-warning=ExperimentalWarning", "src/main.ts"]
`;
}

function readme({ name, platformDir }: ScaffoldInput): string {
  const prefix = claimPrefix(name);
  return `# ${displayName(name)}

An auditor for the agent platform, made with \`platform auditor init ${name}\`.
It reports which watched keywords a request or a model's response contains:

| claim | type | settings |
|---|---|---|
| \`${prefix}_detected\` | boolean | \`keywords\`, \`threshold\` |
| \`${prefix}_score\` | score (0–1) | \`keywords\` |
| \`${prefix}.matches\` | string list | \`keywords\` |

Edit \`src/auditor.ts\`: the vocabulary (claims and settings) and the
\`audit\` function. The SDK serves the auditor contract, checks every claim
against the vocabulary and stamps its provenance.

## Develop

The SDK is this project's dependency \`agent-platform-operator\`, linked from
the platform checkout at \`${platformDir}\` (\`npm install\` makes the link;
nothing is downloaded). It also provides the \`platform\` command.

\`\`\`sh
npm install
npm run dev            # platform auditor dev .  (reloads on change, prints its URL)
npm test               # platform auditor test . (the conformance suite)
npx platform auditor register --id ${name} --endpoint http://<host>:8080
\`\`\`

## Image

\`\`\`sh
docker build --build-context platform=${platformDir} -t ${name}:0.1.0 .
npx platform auditor verify --dockerfile Dockerfile http://127.0.0.1:8080
\`\`\`

The image carries the \`io.platform.*\` labels and runs as user 1000.
Environment: \`PLATFORM_GATEWAY_URL\` and \`TEE_PROVIDER\` (\`MOCK\` or \`COCO\`)
are required; \`PORT\` (8080), \`${prefix.toUpperCase()}_KEYWORDS\` and
\`${prefix.toUpperCase()}_THRESHOLD\` set defaults.
`;
}

const GITIGNORE = 'node_modules/\n';
const DOCKERIGNORE = 'node_modules\n.git\n';

/** Every file of a new auditor project, by path relative to its directory. */
export function scaffoldFiles(input: ScaffoldInput): Record<string, string> {
  return {
    'package.json': packageJson(input),
    'tsconfig.json': TSCONFIG,
    'src/auditor.ts': auditorSource(input),
    'src/main.ts': MAIN,
    Dockerfile: dockerfile(input),
    'README.md': readme(input),
    '.gitignore': GITIGNORE,
    '.dockerignore': DOCKERIGNORE,
  };
}
