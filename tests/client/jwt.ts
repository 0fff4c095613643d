/** An unsigned token with the given claims: the client only reads claims, it never verifies. */
export function tokenWith(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'at+jwt' })}.${part(claims)}.signature`;
}
