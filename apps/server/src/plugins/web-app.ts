import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '@solterm/contracts';

const API_PREFIXES = ['/api', '/ws', '/rpc'];

/**
 * Serves the built web app at / with a single-page-app fallback (any unknown GET that wants HTML gets
 * index.html), and answers unknown API paths with a JSON 404 envelope.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      // One route per built file; everything else (/, /dashboard…) falls through to index.html below.
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/, so those files never change.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app is not built; run `npm run build` to serve it');
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi;
    if (wantsPage && hasBuild) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    if (wantsPage) {
      return reply
        .code(404)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.code(404).send({
      success: false,
      error: `${ERRORS.ROUTE__NOT_FOUND.message}: ${request.method} ${pathname}`,
      code: 'ROUTE__NOT_FOUND',
    });
  });
}
