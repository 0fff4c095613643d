import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createReadStream } from 'node:fs';
import { OfflinePackInfo, OfflinePackParams, offlinePackPath } from '../../../contract/offline-pack.ts';
import { deliveryFor } from '../../platform/http/byte-ranges.ts';
import { HttpError } from '../../platform/http/errors.ts';
import { prepareOfflinePack, type PackEncoding, type PreparedPack } from './pack-builder.ts';

export interface OfflinePackOptions {
  /** Where the pack is built and kept (DATA_DIR/vectors); null: this server offers none. */
  dir: string | null;
}

/** Brotli first, then gzip: what the file is sent as, by the request's Accept-Encoding. */
const encodings = new Negotiator<Exclude<PackEncoding, 'identity'>>({ supportedValues: ['br', 'gzip'] });
const encodingFor = (header: string | undefined): PackEncoding => (header ? encodings.negotiate(header) : null) ?? 'identity';

/**
 * GET /offline-pack and GET /offline-pack/:version: the book and the weight-free models for a
 * device to answer questions on its own (docs/offline.md). The pack is built from the engine's
 * fitted state as the server becomes ready (in the background), or found where an earlier start
 * left it.
 */
export const offlinePackRoutes: FastifyPluginAsyncTypebox<OfflinePackOptions> = async (app, options) => {
  let preparing: Promise<PreparedPack | null> | undefined;
  const prepared = (): Promise<PreparedPack | null> => {
    if (!preparing) {
      const { engine } = app;
      preparing = engine && options.dir ? prepareOfflinePack(engine, options.dir) : Promise.resolve(null);
      // A failure (a full disk) is tried again by the next request.
      preparing.catch((error: unknown) => {
        app.log.error({ err: error }, 'the offline pack could not be built');
        preparing = undefined;
      });
    }
    return preparing;
  };
  app.addHook('onReady', async () => {
    if (options.dir && app.engine) prepared().catch(() => undefined);
  });

  const current = async (): Promise<PreparedPack> => {
    let pack: PreparedPack | null;
    try {
      pack = await prepared();
    } catch {
      throw new HttpError(503, 'The offline book cannot be prepared right now; try again later');
    }
    if (!pack) throw new HttpError(404, "This server's models cannot run on a device: there is no offline book");
    return pack;
  };

  app.get('/offline-pack', { schema: { response: { 200: OfflinePackInfo } } }, async (request) => {
    const pack = await current();
    return {
      version: pack.version,
      url: offlinePackPath(pack.version),
      size: pack.files[encodingFor(request.headers['accept-encoding'])].bytes,
      stored_size: pack.storedBytes,
      sha256: pack.sha256,
      // What the pack holds, not the server's whole pool: the keyword arm stays on the server.
      models: pack.models,
    };
  });

  app.get('/offline-pack/:version', { schema: { params: OfflinePackParams } }, async (request, reply) => {
    const pack = await current();
    if (request.params.version !== pack.version) {
      throw new HttpError(404, `No offline book of version ${request.params.version}: ask /api/offline-pack for the current one`);
    }
    const encoding = encodingFor(request.headers['accept-encoding']);
    const { file, bytes } = pack.files[encoding];
    // A strong ETag of the version and the encoding: the same on every instance and after a
    // restart (@fastify/send's is a weak one of the file's time and size), so that a download
    // cut off on one instance resumes on another (If-Range).
    const etag = `"${pack.version}-${encoding}"`;
    const delivery = deliveryFor(request.headers, etag, bytes);
    if (delivery.status === 416) {
      throw new HttpError(416, `The offline book's file has ${bytes} bytes: that range lies past its end`, { 'content-range': `bytes */${bytes}` });
    }
    reply
      .header('vary', 'accept-encoding')
      // A version's file never changes: a new version has a new url.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('accept-ranges', 'bytes');
    if (delivery.status === 304) return reply.code(304).send();
    reply.type('application/octet-stream');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    if (delivery.status === 206) {
      const { start, end } = delivery;
      reply.code(206).header('content-range', `bytes ${start}-${end}/${bytes}`).header('content-length', end - start + 1);
      return reply.send(createReadStream(file, { start, end }));
    }
    return reply.header('content-length', bytes).send(createReadStream(file));
  });
};
