import { USER_TYPES, type UserType } from '../../../contract/vocabulary.ts';

export { USER_TYPES, type UserType };
export const DEFAULT_USER_TYPE: UserType = 'Enthusiast';

export function isUserType(value: unknown): value is UserType {
  return typeof value === 'string' && (USER_TYPES as readonly string[]).includes(value);
}
