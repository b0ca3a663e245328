// Placeholder until the auditor SDK lands (issue: Auditor SDK).
import type { RoleContext } from '../../operator/roles.ts';
import type { AuditorDefinition } from './types.ts';

export async function serveAuditor(_def: AuditorDefinition, _context: RoleContext): Promise<void> {
  throw new Error('auditor SDK not implemented yet');
}
