/**
 * Every request and reply of the API (docs/api.md), written once. The server declares
 * its routes with these schemas (requests are validated and replies serialised by them, so
 * nothing undeclared leaks out); the app and the service worker import the types only.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { CONTEXT_MAX_RADIUS, MAX_QUERY_LENGTH, MAX_SAVED_NOTE_LENGTH, REACTION_SYMBOLS, RESULT_LABELS, USER_TYPES } from './vocabulary.ts';

/** `T | null`, as one JSON type list (which the reply serialiser handles without trying each branch). */
function Nullable<T extends TSchema & { type: string }>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

/** One of a few strings (a JSON `enum` of type string, so that a wrong type is named as such). */
function OneOf<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

// --- sign-in and sessions -------------------------------------------------------------------

export const LoginForm = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  grant_type: OneOf(['password']),
});
export type LoginForm = Static<typeof LoginForm>;

export const RefreshRequest = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) });
export type RefreshRequest = Static<typeof RefreshRequest>;

export const TokenReply = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: OneOf(['bearer']),
  expires_in: Type.Integer(),
});
export type TokenReply = Static<typeof TokenReply>;

export const DetailReply = Type.Object({ detail: Type.String() });
export type DetailReply = Static<typeof DetailReply>;

// --- invitations (npm run users -- invite) --------------------------------------------------

/** The secret from an invitation link (`/invite/<token>`): sent in a body, never in an API URL. */
const InvitationToken = Type.String({ minLength: 1, maxLength: 200 });

export const InvitationCheck = Type.Object({ token: InvitationToken });
export type InvitationCheck = Static<typeof InvitationCheck>;

/** A usable invitation: the user type it fixes (null: the reader chooses) and when it expires. */
export const InvitationReply = Type.Object({
  user_type: Type.Unsafe<(typeof USER_TYPES)[number] | null>({ type: ['string', 'null'], enum: [...USER_TYPES, null] }),
  expires_at: Type.String(),
});
export type InvitationReply = Static<typeof InvitationReply>;

export const InvitationAccept = Type.Object({
  token: InvitationToken,
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  user_type: Type.Optional(OneOf(USER_TYPES)),
});
export type InvitationAccept = Static<typeof InvitationAccept>;

/** The new account signed in: the tokens /login gives, and the user type it was made as. */
export const InvitationAccepted = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: OneOf(['bearer']),
  expires_in: Type.Integer(),
  username: Type.String(),
  user_type: OneOf(USER_TYPES),
});
export type InvitationAccepted = Static<typeof InvitationAccepted>;

// --- search and reading ---------------------------------------------------------------------

export const SearchRequest = Type.Object({
  query: Type.String({ maxLength: MAX_QUERY_LENGTH }),
  top_k: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  models: Type.String({ default: 'both' }),
});
export type SearchRequest = Static<typeof SearchRequest>;

export const Highlight = Type.Object({ start: Type.Integer(), end: Type.Integer() });
export type Highlight = Static<typeof Highlight>;

export const Mark = Type.Object({ anchor: Type.String(), start: Type.Integer(), end: Type.Integer() });
export type Mark = Static<typeof Mark>;

export const SearchResult = Type.Object({
  id: Type.String(),
  text: Type.String(),
  /** A display name holding the family marker BGE or UAE. */
  model_type: Type.String(),
  /** The model's id. */
  model: Type.String(),
  similarity: Type.Number(),
  chapter: Type.String(),
  section: Nullable(Type.String()),
  passage_index: Type.Integer(),
  rank: Type.Integer(),
  /** Character offsets in `text` of the sentence that best matches the query, by the same model. */
  highlight: Type.Optional(Highlight),
  /** The paragraph where the passage begins, as the reader addresses it (`ch4#p12`, GET /api/book). */
  anchor: Type.String(),
  /** The highlighted sentence in the book: its paragraph and its offsets in that paragraph's `text` in GET /api/book. */
  mark: Type.Optional(Mark),
  /**
   * How far this model's first passage stands above its next nine, in the model's own scale
   * (common/search/match-strength.ts), less `LINE_ELSEWHERE` when the gloss line closest to the
   * question is another passage's, never below 0; or 0 when the book knows too few of the
   * question's words (`BOOK_WORDS_BAR`). Below 1 on average over the arms shown (with what they
   * agree on), the book says little about the question. Absent for a model with no scale (the
   * keyword arm).
   */
  strength: Type.Optional(Type.Number()),
  /**
   * The search's receipt (docs/arena.md): opaque, signed by the server, the same on every result
   * of one `both` search made with a reader's token. A vote copies it; without it a vote is not counted.
   */
  receipt: Type.Optional(Type.String()),
});
export type SearchResult = Static<typeof SearchResult>;

export const SearchReply = Type.Array(SearchResult);
export type SearchReply = Static<typeof SearchReply>;

export const PassageParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Neighbours = (description: string) => Type.Integer({ minimum: 0, maximum: CONTEXT_MAX_RADIUS, description });
export const ContextQuery = Type.Object({
  radius: Type.Integer({ minimum: 0, maximum: CONTEXT_MAX_RADIUS, default: 2 }),
  before: Type.Optional(Neighbours('passages before this one (default: radius)')),
  after: Type.Optional(Neighbours('passages after this one (default: radius)')),
});

export const PassageContext = Type.Object({
  id: Type.String(),
  chapter: Type.String(),
  section: Nullable(Type.String()),
  passages: Type.Array(
    Type.Object({ id: Type.String(), text: Type.String(), passage_index: Type.Integer(), section: Nullable(Type.String()) }),
  ),
  notes: Type.Array(Type.Object({ label: Type.String(), text: Type.String() })),
  /** How many more passages of the chapter lie before the first returned, and after the last. */
  more_before: Type.Integer(),
  more_after: Type.Integer(),
});
export type PassageContext = Static<typeof PassageContext>;

// --- the book, to read (GET /api/book: public, the same for every caller) ------------------------

/** A paragraph as printed, addressed `<part>#p<n>` (n from 1 across the part's sections; headings and notes aside). */
export const BookParagraph = Type.Object({
  n: Type.Integer({ minimum: 1 }),
  /** The `###` heading it stands under, or null. */
  section: Nullable(Type.String()),
  kind: OneOf(['paragraph', 'verse', 'list']),
  /** Plain text as printed: emphasis and footnote marks removed; verse and lists keep their line breaks. */
  text: Type.String(),
  /** Italic spans of `text`, [start, end). */
  emphasis: Type.Array(Type.Tuple([Type.Integer(), Type.Integer()])),
  /** Footnote marks: the note `label` is marked after the character before `at` in `text`. */
  notes: Type.Array(Type.Object({ label: Type.String(), at: Type.Integer() })),
  /** The 1909 edition's page the paragraph begins on (null before the first numbered page). */
  page: Nullable(Type.Integer()),
  /** Pages that begin inside the paragraph, at offset `at` of `text`. */
  pages: Type.Array(Type.Object({ page: Type.Integer(), at: Type.Integer() })),
});
export type BookParagraph = Static<typeof BookParagraph>;

export const BookPart = Type.Object({
  /** editorial-note, preface, introduction, ch1 … ch8. */
  slug: Type.String(),
  heading: Type.String(),
  paragraphs: Type.Array(BookParagraph),
  notes: Type.Array(Type.Object({ label: Type.String(), text: Type.String() })),
});
export type BookPart = Static<typeof BookPart>;

export const BookReply = Type.Object({
  title: Type.String(),
  edition: Type.String(),
  parts: Type.Array(BookPart),
});
export type BookReply = Static<typeof BookReply>;

// --- votes ----------------------------------------------------------------------------------

export const FeedbackItem = Type.Object({
  user_type: OneOf(USER_TYPES),
  username: Type.String({ maxLength: 200 }),
  query: Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH }),
  retrieved_text: Type.String({ minLength: 1, maxLength: 10000 }),
  model_type: Type.String({ minLength: 1, maxLength: 200 }),
  result_label: OneOf(RESULT_LABELS),
  reaction: OneOf(REACTION_SYMBOLS),
  confidence_score: Type.Number(),
  /** Made by the client for each item: the same id saved twice is stored once. */
  client_id: Type.Optional(Type.String({ format: 'uuid' })),
  /** Shared by the A and B items of one search. */
  round_id: Type.Optional(Type.String({ format: 'uuid' })),
  /**
   * The receipt of the search whose result this rates, as the search gave it, or `device` for a
   * round the device answered offline. An item without it (an older client) is stored and not counted.
   */
  receipt: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
});
export type FeedbackItem = Static<typeof FeedbackItem>;

/** Votes in one POST /api/save. */
export const MAX_SAVE_ITEMS = 50;
export const SaveRequest = Type.Object({ items: Type.Array(FeedbackItem, { minItems: 1, maxItems: MAX_SAVE_ITEMS }) });
export type SaveRequest = Static<typeof SaveRequest>;

export const SaveReply = Type.Object({ saved: Type.Integer(), duplicates: Type.Integer() });
export type SaveReply = Static<typeof SaveReply>;

export const FeedbackQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) });

/** A stored vote as GET /feedback lists it: the item as sent, with its id and time. */
export const StoredFeedback = Type.Evaluate(
  Type.Intersect([
    Type.Omit(FeedbackItem, ['client_id', 'round_id', 'receipt']),
    Type.Object({ id: Type.Integer(), client_id: Nullable(Type.String()), round_id: Nullable(Type.String()), created_at: Type.String() }),
  ]),
);
export type StoredFeedback = Static<typeof StoredFeedback>;

export const FeedbackList = Type.Array(StoredFeedback);

// --- saved passages (a reader's own, kept across devices) ---------------------------------

/** The saved passage's id: a UUID the client makes when the reader first saves it. */
export const SavedParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type SavedParams = Static<typeof SavedParams>;

/** A client's time (ms since 1970): the newest change to a saved passage wins. */
const ClientTime = Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 });

/**
 * PUT /api/saved/:id: save a passage, or change its note. `anchor` is the paragraph (`ch4#p12`);
 * a search result may give its passage's id (`passage`) instead, and the server keeps the
 * paragraph it begins with. `updated_at` orders changes: an older one than the stored one changes nothing.
 */
export const SavedPut = Type.Object({
  anchor: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  passage: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  note: Type.String({ maxLength: MAX_SAVED_NOTE_LENGTH, default: '' }),
  saved_at: ClientTime,
  updated_at: ClientTime,
});
export type SavedPut = Static<typeof SavedPut>;

/** DELETE /api/saved/:id?updated_at=…: removed, unless a newer change was stored. */
export const SavedDeleteQuery = Type.Object({ updated_at: ClientTime });
export type SavedDeleteQuery = Static<typeof SavedDeleteQuery>;

/** A saved passage as the server keeps it; `removed` when the newest change removed it. */
export const SavedPassage = Type.Object({
  id: Type.String(),
  anchor: Type.String(),
  /** The part's heading, from the book. */
  chapter: Type.String(),
  /** The paragraph's opening words, from the book. */
  excerpt: Type.String(),
  note: Type.String(),
  saved_at: Type.Integer(),
  updated_at: Type.Integer(),
  removed: Type.Boolean(),
});
export type SavedPassage = Static<typeof SavedPassage>;

/** GET /api/saved: the caller's saved passages, newest first (removed ones left out). */
export const SavedList = Type.Array(SavedPassage);
export type SavedList = Static<typeof SavedList>;

// --- insights -------------------------------------------------------------------------------

export const ReactionCounts = Type.Object({
  '👍': Type.Integer(),
  '🤷': Type.Integer(),
  '👎': Type.Integer(),
  total: Type.Integer(),
});
export type ReactionCounts = Static<typeof ReactionCounts>;

export const Interval = Type.Object({ low: Type.Number(), high: Type.Number() });
export type Interval = Static<typeof Interval>;

export const ComparisonRecord = Type.Object({
  wins: Type.Integer(),
  ties: Type.Integer(),
  losses: Type.Integer(),
  /** wins / (wins + losses): ties say neither model was better. Null with no decisive round. */
  winRate: Nullable(Type.Number()),
  /** The 95% Wilson interval of winRate. */
  interval: Type.Union([Interval, Type.Null()]),
});
export type ComparisonRecord = Static<typeof ComparisonRecord>;

const byUserType = <T extends TSchema>(schema: T) => Type.Object({ Enthusiast: schema, Ustaz: schema });

export const ModelStats = Type.Object({
  model: Type.String(),
  reactions: Type.Evaluate(Type.Intersect([ReactionCounts, Type.Object({ byUserType: byUserType(ReactionCounts) })])),
  comparison: Type.Evaluate(Type.Intersect([ComparisonRecord, Type.Object({ byUserType: byUserType(ComparisonRecord) })])),
});
export type ModelStats = Static<typeof ModelStats>;

/** Wins, ties and losses of `model` in its decided rounds against `opponent`. */
export const PairRecord = Type.Object({
  model: Type.String(),
  opponent: Type.String(),
  wins: Type.Integer(),
  ties: Type.Integer(),
  losses: Type.Integer(),
});
export type PairRecord = Static<typeof PairRecord>;

/**
 * Every compared model's Bradley–Terry strength (geometric mean 1) with its 95% bootstrap
 * interval, the pairwise table, and how sure the order of the top two is.
 */
export const Leaderboard = Type.Object({
  /** Decided rounds among these models. */
  rounds: Type.Integer(),
  /** Strongest first. */
  arms: Type.Array(
    Type.Object({
      model: Type.String(),
      strength: Type.Number(),
      low: Type.Number(),
      high: Type.Number(),
      rounds: Type.Integer(),
      /** Distinct readers with a decided round of this model. */
      readers: Type.Integer(),
    }),
  ),
  /** Every ordered pair that met, both ways round. */
  pairs: Type.Array(PairRecord),
  separation: Type.Object({
    leader: Type.String(),
    runnerUp: Type.String(),
    /** ln(leader's strength / runner-up's): the log odds that the leader wins a round between them. */
    difference: Type.Number(),
    /** Its 95% interval (normal, from the spread of a bootstrap resampling readers, or the fit's Wald variance if larger). */
    low: Type.Number(),
    high: Type.Number(),
    /** Whether the two are told apart: `verdict` is `separated`. */
    separated: Type.Boolean(),
    /**
     * `separated`: the interval excludes zero, at least `minReaders` readers stand behind it, and
     * it still does without the `influential` readers who pushed it most; `carried-by-few`: the
     * interval excludes zero, but not without those few; `too-few-readers`: it excludes zero on
     * fewer than `minReaders` readers; `not-yet`: the interval includes zero.
     */
    verdict: OneOf(['separated', 'carried-by-few', 'too-few-readers', 'not-yet']),
    /** Distinct readers with a decided round of either of the two. */
    readers: Type.Integer(),
    minReaders: Type.Integer(),
    /** How many of the most influential readers the verdict must survive losing: 3, or 10% of the readers if more. */
    influential: Type.Integer(),
    /** The share of the two's decided rounds those readers gave. */
    influentialShare: Type.Number(),
    /** Whether the interval, worked out without them, still excludes zero. */
    survivesWithoutInfluential: Type.Boolean(),
    /** How many more decided rounds would make it exclude zero, if the difference stays as it is; null when separated or when no difference is seen. */
    moreRounds: Nullable(Type.Integer()),
  }),
});
export type Leaderboard = Static<typeof Leaderboard>;
/** Why votes were stored but not counted (docs/arena.md): how many for each reason. */
export const VotesLeftOut = Type.Object({
  /** A newer vote of the same reader on the same question, model and passage replaced it. */
  repeat: Type.Integer(),
  /** Its model does not show its passage for its question. */
  notShown: Type.Integer(),
  /** It names no model this service serves (or `unknown`). */
  unknownModel: Type.Integer(),
  /** It names a model the service could not run to check it; checked again at the next start. */
  unchecked: Type.Integer(),
  /** Sent without a receipt (an older client; and every vote stored before receipts). */
  noReceipt: Type.Integer(),
  /** A receipt the server never signed (or altered). */
  forged: Type.Integer(),
  /** A receipt past its time. */
  expired: Type.Integer(),
  /** Another reader's receipt. */
  otherReader: Type.Integer(),
  /** An arm or a question its search (or the device's round) did not draw. */
  notDrawn: Type.Integer(),
  /** A passage other than its arm's first. */
  notFirst: Type.Integer(),
});
export type VotesLeftOut = Static<typeof VotesLeftOut>;

export const RoundsLeftOut = Type.Evaluate(
  Type.Intersect([
    VotesLeftOut,
    /** Past the reader's first dailyRoundBound decided rounds of that day (UTC). */
    Type.Object({ overDailyBound: Type.Integer() }),
  ]),
);
export type RoundsLeftOut = Static<typeof RoundsLeftOut>;

export const Stats = Type.Object({
  /** Votes counted below: shown by their model, one per reader, question, model and passage. */
  votes: Type.Integer(),
  /** Votes stored but not counted, for any reason (the sum of leftOutVotes). */
  leftOut: Type.Integer(),
  leftOutVotes: VotesLeftOut,
  rounds: Type.Object({
    /** Rounds counted in the comparison. */
    compared: Type.Integer(),
    /** Of those, rounds a device drew and answered offline (no receipt: the server worked them out again). */
    fromDevice: Type.Integer(),
    /** Decided rounds whose two passages were the same: nothing to compare. */
    samePassage: Type.Integer(),
    /** Rounds with a vote on one label only. */
    oneSided: Type.Integer(),
    /** Decided rounds left out of the comparison, by why (as for votes; a round goes by its sides' verdicts). */
    leftOut: RoundsLeftOut,
  }),
  /** How many decided rounds a reader a day count in the comparison. */
  dailyRoundBound: Type.Integer(),
  models: Type.Array(ModelStats),
  /** Only when more than two models appear in compared rounds (the leaderboard's strengths, kept for earlier clients). */
  bradleyTerry: Type.Union([
    Type.Array(Type.Object({ model: Type.String(), strength: Type.Number(), low: Type.Number(), high: Type.Number() })),
    Type.Null(),
  ]),
  /** Once two models have been compared. */
  leaderboard: Type.Union([Leaderboard, Type.Null()]),
});
export type Stats = Static<typeof Stats>;

// --- health ---------------------------------------------------------------------------------

export const HealthModel = Type.Object({
  id: Type.String(),
  family: Type.String(),
  name: Type.String(),
  dim: Type.Integer(),
  passages: Type.Integer(),
  status: OneOf(['ready', 'unavailable']),
});
export type HealthModel = Static<typeof HealthModel>;

export const CorpusSummary = Type.Object({ title: Type.String(), chapters: Type.Integer(), passages: Type.Integer() });
export type CorpusSummary = Static<typeof CorpusSummary>;

export const Health = Type.Object({
  status: OneOf(['ok', 'degraded']),
  lineup: Type.String(),
  models: Type.Array(HealthModel),
  corpus: CorpusSummary,
  database: OneOf(['embedded', 'postgres']),
});
export type Health = Static<typeof Health>;

export const Liveness = Type.Object({ status: OneOf(['live']) });
export type Liveness = Static<typeof Liveness>;

export const Readiness = Type.Object({ status: OneOf(['ready']) });
export type Readiness = Static<typeof Readiness>;
