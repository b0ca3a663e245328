import type { RoleRunner } from '../operator/roles.ts';
export const runOperator: RoleRunner = async () => {
  throw new Error('not yet');
};
