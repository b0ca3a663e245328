// Schemathesis against the API as the org administrator (policy, audit, registration and key routes): see schemathesis.ts.
import { describe } from 'vitest';
import { schemathesisAgainstTheApi } from './schemathesis.ts';

describe('schemathesis against the API', () => schemathesisAgainstTheApi('org_admin'));
