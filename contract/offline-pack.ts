import { Type, type Static } from 'typebox';

/**
 * GET /api/offline-pack: the offline pack this server answers with now (docs/offline.md). Its
 * file is at `url`, relative to the API's base, for as long as the models and the book stay as
 * they are; a new version has a new url.
 */
export const OfflinePackInfo = Type.Object({
  /** Changes whenever the book or a model changes, and with it every answer it may give. */
  version: Type.String(),
  /** The pack's file, from the API's base (`/offline-pack/<version>`). */
  url: Type.String(),
  /** Bytes the download transfers, compressed as this request's Accept-Encoding allows. */
  size: Type.Integer({ minimum: 0 }),
  /** Bytes the pack takes on the device, as it is kept (uncompressed). */
  stored_size: Type.Integer({ minimum: 0 }),
  /** The SHA-256 of the pack as kept (uncompressed), 64 hex digits: a device refuses a pack that does not match. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** The model_type of each model the pack holds and answers with, as the server's results name them. */
  models: Type.Array(Type.String()),
});
export type OfflinePackInfo = Static<typeof OfflinePackInfo>;

export const OfflinePackParams = Type.Object({ version: Type.String({ pattern: '^[0-9a-f]{16}$' }) });

/** The pack file's path under the API's base. */
export const offlinePackPath = (version: string) => `/offline-pack/${version}`;
