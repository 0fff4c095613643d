import { KEYWORD_ARM } from './keyword-arm.ts';
import { LineupError } from './lineup-error.ts';

/**
 * The weight-free arms of the arena's pool (docs/arena-pool.md): which models, with which
 * settings. ARENA_ARMS gives them as JSON (inline, or a file's path); without it the pool is
 * DEFAULT_ARMS, today's. Each LSA or SIF arm starts from the served settings (LSA_SETTINGS,
 * SIF_SETTINGS) and changes only what it names, so `{"kind": "lsa", "id": "lsa-96-nogloss",
 * "settings": {"gloss": 0}}` is the served LSA without the glosses.
 */
export type ArmKind = 'lsa' | 'sif' | 'bm25';

export interface ArmSpec {
  id: string;
  kind: ArmKind;
  /** What differs from the served settings of its kind (none for bm25). */
  settings: Record<string, number | boolean>;
}

export const DEFAULT_ARMS: readonly ArmSpec[] = [
  { id: 'lsa-96', kind: 'lsa', settings: {} },
  { id: 'sif-150', kind: 'sif', settings: {} },
  { id: KEYWORD_ARM.id, kind: 'bm25', settings: {} },
];

type SettingRule = { type: 'integer'; min: number; max: number } | { type: 'number'; min: number; max: number; above?: boolean } | { type: 'boolean' };

const WEIGHT: SettingRule = { type: 'number', min: 0, max: 100 };
const SMOOTHING: SettingRule = { type: 'number', min: 0, max: 1, above: true };
const SHARED: Record<string, SettingRule> = {
  wordnet: { type: 'boolean' },
  expansion: WEIGHT,
  english: WEIGHT,
  englishA: SMOOTHING,
  sentenceWeight: WEIGHT,
  glossary: WEIGHT,
  gloss: WEIGHT,
  typos: { type: 'boolean' },
};
/** The settings each kind takes, and their ranges (an LSA keeps fewer topics than the book's 173 passages). */
export const ARM_SETTINGS: Record<ArmKind, Record<string, SettingRule>> = {
  lsa: { dims: { type: 'integer', min: 2, max: 160 }, lexical: WEIGHT, lexicalDims: { type: 'integer', min: 1, max: 4096 }, ...SHARED },
  sif: { dims: { type: 'integer', min: 2, max: 1000 }, window: { type: 'integer', min: 1, max: 50 }, a: SMOOTHING, ...SHARED },
  bm25: {},
};

/** The error a start stops with: which arm, what is wrong, and what would be right. */
export class ArmsError extends LineupError {}

const ID = /^[a-z0-9][a-z0-9.-]{0,39}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkSetting(where: string, key: string, value: unknown, rule: SettingRule): number | boolean {
  if (rule.type === 'boolean') {
    if (typeof value !== 'boolean') throw new ArmsError(`${where}.settings.${key} must be true or false (got ${JSON.stringify(value)})`);
    return value;
  }
  const whole = rule.type === 'integer';
  const fits =
    typeof value === 'number' && Number.isFinite(value) && (!whole || Number.isInteger(value)) && value <= rule.max && (rule.type === 'number' && rule.above ? value > rule.min : value >= rule.min);
  if (!fits) {
    const range = rule.type === 'number' && rule.above ? `above ${rule.min} and at most ${rule.max}` : `from ${rule.min} to ${rule.max}`;
    throw new ArmsError(`${where}.settings.${key} must be ${whole ? 'a whole number' : 'a number'} ${range} (got ${JSON.stringify(value)})`);
  }
  return value as number;
}

/**
 * ARENA_ARMS read: a list of arms, each `{"kind": "lsa" | "sif" | "bm25", "id"?: …, "settings"?: {…}}`.
 * Undefined gives DEFAULT_ARMS. Anything else throws an ArmsError naming the arm and the field.
 */
export function parseArms(raw: unknown): ArmSpec[] {
  if (raw === undefined) return DEFAULT_ARMS.map((arm) => ({ ...arm, settings: {} }));
  if (!Array.isArray(raw)) throw new ArmsError('ARENA_ARMS must be a JSON list of arms, such as [{"kind": "lsa"}, {"kind": "sif"}, {"kind": "bm25"}]');
  if (raw.length < 2) throw new ArmsError(`ARENA_ARMS must name at least two arms, for the arena to compare (got ${raw.length})`);
  const arms = raw.map((item, i): ArmSpec => {
    const where = `ARENA_ARMS[${i}]`;
    if (!isObject(item)) throw new ArmsError(`${where} must be an object such as {"kind": "lsa", "settings": {"gloss": 0}}`);
    for (const key of Object.keys(item)) {
      if (!['kind', 'id', 'settings'].includes(key)) throw new ArmsError(`${where} has "${key}", which is none of kind, id, settings`);
    }
    const kind = item.kind;
    if (kind !== 'lsa' && kind !== 'sif' && kind !== 'bm25') throw new ArmsError(`${where}.kind must be lsa, sif or bm25 (got ${JSON.stringify(kind)})`);
    const given = item.settings ?? {};
    if (!isObject(given)) throw new ArmsError(`${where}.settings must be an object of settings`);
    const rules = ARM_SETTINGS[kind];
    const settings: Record<string, number | boolean> = {};
    for (const [key, value] of Object.entries(given)) {
      const rule = rules[key];
      if (!rule) {
        const known = Object.keys(rules);
        throw new ArmsError(`${where}.settings has "${key}", which a ${kind} arm does not take${known.length ? ` (it takes ${known.join(', ')})` : ' (it takes none)'}`);
      }
      settings[key] = checkSetting(where, key, value, rule);
    }
    const fallback = kind === 'bm25' ? KEYWORD_ARM.id : `${kind}-${(settings.dims as number | undefined) ?? (kind === 'lsa' ? 96 : 150)}`;
    const id = item.id ?? fallback;
    if (typeof id !== 'string' || !ID.test(id)) {
      throw new ArmsError(`${where}.id must be 1 to 40 lower-case letters, digits, dots or hyphens, starting with a letter or digit (got ${JSON.stringify(id)})`);
    }
    if (kind === 'bm25' && id !== KEYWORD_ARM.id) throw new ArmsError(`${where}: the keyword arm's id is ${KEYWORD_ARM.id} (got ${JSON.stringify(id)})`);
    return { id, kind, settings };
  });
  const seen = new Map<string, number>();
  arms.forEach((arm, i) => {
    const first = seen.get(arm.id);
    if (first !== undefined) throw new ArmsError(`ARENA_ARMS[${first}] and ARENA_ARMS[${i}] have the same id "${arm.id}": give each arm its own`);
    seen.set(arm.id, i);
  });
  return arms;
}
