// ESLint rule `solterm/module-boundaries`: the server's module graph as the architecture declares it.
//
// - apps/server/src/modules/<m>/ is a module. A file of one module imports another module only through
//   that module's public file (`<other>.service.ts`, or the module's declared `publicFiles`), never
//   its repository, tables or helpers. Tables files may import another module's tables file (foreign
//   keys); db/schema.ts gathers every tables file.
// - Modules are layered (`layers`, lowest first) and a module may import only modules of lower
//   layers, so the module graph is acyclic by construction; a module missing from `layers` is reported.
// - Platform folders (lib, db, config) never import modules (db/schema.ts may import tables files);
//   plugins (HTTP glue) import modules only through their public files.
// - Composition roots (`roots`: app.ts, services.ts, http-app.ts, server.ts, worker.ts) may import anything.
// The layering and the import visitors are shared with the web's rule (eslint/layered-boundaries.js).
import path from 'node:path';
import { layeredBoundaries, partsUnder } from '../../../eslint/layered-boundaries.js';

/** Where a file sits: a module, a platform folder, plugins, a composition root, or outside the app. */
function placeOf(file, srcDir, roots) {
  const parts = partsUnder(srcDir, file);
  if (!parts) return { kind: 'outside' };
  if (parts.length === 1)
    return roots.includes(parts[0]) ? { kind: 'root' } : { kind: 'platform', name: parts[0] };
  if (parts[0] === 'modules' && parts.length >= 3) {
    return { kind: 'module', name: parts[1], inner: parts.slice(2).join('/') };
  }
  if (parts[0] === 'plugins') return { kind: 'plugins' };
  return { kind: 'platform', name: parts[0] };
}

const withoutExtension = (file) => file.replace(/\.(ts|js|mjs|tsx)$/, '');

export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Modules import each other only through public files, along a declared acyclic layering',
    },
    schema: [
      {
        type: 'object',
        properties: {
          srcDir: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
          publicFiles: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          roots: { type: 'array', items: { type: 'string' } },
        },
        required: ['srcDir', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      notPublic: "'{{target}}' is internal to the {{module}} module: import it through {{publicFiles}}",
      upward:
        'The {{from}} module (layer {{fromLayer}}) may not import the {{to}} module (layer {{toLayer}}): modules import only lower layers, so the graph stays acyclic',
      unknownModule:
        'The {{module}} module has no layer: add it to the module-boundaries layers in eslint.config.js',
      platformImportsModule: '{{platform}}/ is platform code: it must not import the {{module}} module',
      tablesAcross:
        'Tables of the {{module}} module are imported only by db/schema.ts and by tables files (foreign keys)',
    },
  },
  create(context) {
    const { options, srcDir, file, checkLayers, importVisitors } = layeredBoundaries(context, {
      unknownMessageId: 'unknownModule',
      nameKey: 'module',
    });
    const roots = options.roots ?? ['app.ts', 'server.ts', 'worker.ts', 'services.ts', 'http-app.ts'];
    const publicFilesOf = (name) => options.publicFiles?.[name] ?? [`${name}.service`];
    const from = placeOf(file, srcDir, roots);
    if (from.kind === 'outside' || from.kind === 'root') return {};

    return importVisitors((node, source, target) => {
      const to = placeOf(target, srcDir, roots);
      if (to.kind !== 'module') return;
      if (from.kind === 'module' && from.name === to.name) return;
      const inner = withoutExtension(to.inner);
      const fromTables = from.kind === 'module' && withoutExtension(from.inner).endsWith('.tables');
      const fromSchema =
        from.kind === 'platform' && from.name === 'db' && path.basename(file).startsWith('schema.');
      if (inner.endsWith('.tables')) {
        if (!fromTables && !fromSchema)
          context.report({ node, messageId: 'tablesAcross', data: { module: to.name } });
        return;
      }
      if (from.kind === 'platform') {
        context.report({
          node,
          messageId: 'platformImportsModule',
          data: { platform: from.name, module: to.name },
        });
        return;
      }
      const publicFiles = publicFilesOf(to.name);
      if (!publicFiles.includes(inner)) {
        context.report({
          node,
          messageId: 'notPublic',
          data: {
            target: source,
            module: to.name,
            publicFiles: publicFiles.map((name) => `${name}.ts`).join(' or '),
          },
        });
        return;
      }
      if (from.kind === 'module') checkLayers(node, from.name, to.name);
    });
  },
};

export default { rules: { 'module-boundaries': moduleBoundaries } };
