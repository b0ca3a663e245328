// Starting points of the definition editor: one small file per kind, with
// comments, in the spec's layout (abilities and environment beside spec).

export const TEMPLATES: Record<'PlatformAgent' | 'PlatformWorkspace' | 'PlatformEnvironment', string> = {
  PlatformAgent: `# A standalone agent: its Owners, its model, its auditors and its soul.
apiVersion: platform.io/v1alpha1
kind: PlatformAgent
metadata:
  name: my-agent
spec:
  owners:
    - subject: you@example.com
      role: Owner
  model:
    id: gpt-4o-mini
  auditorChain:
    preRequest:
      - auditorId: injection
    postResponse:
      - auditorId: toxicity
  auditorSettings:
    injection:
      threshold: {value: 0.8}
abilities:
  soul:
    identity: {name: My agent, role: assistant}
    personality: Helpful and precise.
environment:
  tools:
    - name: github
      category: MCP Servers
`,
  PlatformWorkspace: `# A workspace: defaults for every agent in it, and its agents.
apiVersion: platform.io/v1alpha1
kind: PlatformWorkspace
metadata:
  name: my-team
spec:
  defaults:
    auditorChain:
      preRequest:
        - auditorId: injection
      postResponse:
        - auditorId: toxicity
    auditorSettings:
      injection:
        threshold: {value: 0.8, enforced: true}
    owners:
      - subject: you@example.com
        role: Owner
  agents:
    - name: planner
      model:
        id: gpt-4o
`,
  PlatformEnvironment: `# A model environment: a model and its auditors as a headless API backend.
apiVersion: platform.io/v1alpha1
kind: PlatformEnvironment
metadata:
  name: my-backend
spec:
  deploymentType: model
  model:
    id: llama-3-8b
  auditorChain:
    preRequest:
      - auditorId: injection
`,
};

export const USER_CONTEXT_TEMPLATE = `# About me

## Preferences

- language: English
- tone: concise

## Context

I work on the platform team.

## Notes

- Prefers pull requests under 400 lines.
`;
