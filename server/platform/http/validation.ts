import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

// Bodies are checked as sent (a number is not a string); query strings arrive as text and are
// coerced. Fields a schema does not name are dropped unread, however deep or odd their content.
const options = { useDefaults: true, allErrors: false, strict: false, removeAdditional: 'all' } as const;
const strict = new Ajv({ ...options, coerceTypes: false });
const coercing = new Ajv({ ...options, coerceTypes: true });

/** A UUID as PostgreSQL's uuid type takes it: 8-4-4-4-12 hex digits, no `urn:uuid:` prefix, no braces. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
strict.addFormat('uuid', UUID);
coercing.addFormat('uuid', UUID);

/** Half of a surrogate pair standing alone: not a character, and not text PostgreSQL keeps as sent. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Values JSON Schema lets through but the store cannot keep: a number past float range (`1e400`
 * parses as Infinity, which PostgreSQL reads back as null), text holding U+0000 (which PostgreSQL
 * text cannot hold) and text with a lone surrogate (`\ud800`, which would be stored as U+FFFD).
 * The first one found, in the fields the schema kept, as an Ajv error.
 */
export function findUnstorableValue(data: unknown, instancePath = ''): ErrorObject | null {
  if (typeof data === 'number' && !Number.isFinite(data)) return unstorable('finite', instancePath);
  if (typeof data === 'string' && data.includes('\u0000')) return unstorable('noNul', instancePath);
  if (typeof data === 'string' && LONE_SURROGATE.test(data)) return unstorable('wellFormed', instancePath);
  if (Array.isArray(data)) {
    for (const [i, item] of data.entries()) {
      const found = findUnstorableValue(item, `${instancePath}/${i}`);
      if (found) return found;
    }
  } else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      const found = findUnstorableValue(value, `${instancePath}/${key}`);
      if (found) return found;
    }
  }
  return null;
}

function unstorable(keyword: 'finite' | 'noNul' | 'wellFormed', instancePath: string): ErrorObject {
  return { keyword, instancePath, schemaPath: '', params: {} };
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema);
  const check = Object.assign(
    (data: unknown): boolean => {
      if (!validate(data)) {
        check.errors = validate.errors ?? [];
        return false;
      }
      const found = findUnstorableValue(data);
      check.errors = found ? [found] : null;
      return found === null;
    },
    { errors: null as ErrorObject[] | null },
  );
  return check;
};

/** `/items/0/reaction` → `items[0].reaction` */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

/** One sentence naming the field and what it must be, for a `400` detail. */
export function describeValidationError(error: ErrorObject, part: string): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${fieldName(error.instancePath, String(params.missingProperty))} is required`;
  const field = fieldName(error.instancePath);
  if (!field) return part === 'body' ? 'Request body must be a JSON object' : `Invalid ${part}`;
  switch (error.keyword) {
    case 'type':
      return `${field} must be ${ARTICLE[String(params.type)] ?? String(params.type)}`;
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${field} must be ${String(params.allowedValue)}`;
    case 'minLength':
      return params.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `${field} must be at most ${String(params.limit)} characters`;
    case 'minItems':
      return `${field} must hold at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${field} must hold at most ${String(params.limit)} items`;
    case 'minimum':
      return `${field} must be at least ${String(params.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(params.limit)}`;
    case 'finite':
      return `${field} must be a finite number`;
    case 'noNul':
      return `${field} must not contain the NUL character (U+0000)`;
    case 'wellFormed':
      return `${field} must be valid Unicode text (it holds half of a surrogate pair)`;
    case 'format':
      return `${field} must be ${params.format === 'uuid' ? 'a UUID' : `a valid ${String(params.format)}`}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}
