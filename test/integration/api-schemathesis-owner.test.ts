// Schemathesis against the API as an Owner (the agent routes): see schemathesis.ts.
import { describe } from 'vitest';
import { schemathesisAgainstTheApi } from './schemathesis.ts';

describe('schemathesis against the API', () => schemathesisAgainstTheApi('owner'));
